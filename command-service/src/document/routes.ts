import { createHash, randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  changeDocumentInput,
  documentChangedAnswer,
  documentLink,
  documentUploadedAnswer,
  errorAnswers,
  isStorableText,
  MAX_DOCUMENT_BYTES,
  SIGNED_IN_ERRORS,
  streams,
  uploadDocumentFields,
  uuidParams,
  type DocumentLink,
} from '@pf/events';
import { DomainError, Invalid, NotFound, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { dealDecider } from '../deal/deal';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { documentDecider, visibleTo } from './document';
import { removeFile, signingSecret, storeFile } from './file-store';
import { signLink, type Disposition } from './signed-link';
import { sniffDocument } from './sniff';

const VIEW_LINK_SECONDS = 5 * 60;
const SHARE_LINK_SECONDS = 7 * 24 * 60 * 60;

class TooLarge extends DomainError {
  constructor() {
    super('file: The file is larger than 10 MB, the most a document may be', 413);
  }
}

/** Reads the form: its text fields and one file, whole (at most 10 MB), whatever order the parts come in. */
async function readUpload(request: FastifyRequest): Promise<{ fields: Record<string, string>; file: { name: string; content: Buffer } }> {
  if (!request.isMultipart()) throw new Invalid('Send the document as multipart/form-data with a file field');
  const fields: Record<string, string> = {};
  let file: { name: string; content: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new Invalid(`${part.fieldname}: the file goes in the field named file`);
        file = { name: part.filename, content: await part.toBuffer() };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new TooLarge();
    if (code === 'FST_FILES_LIMIT_REACHED') throw new Invalid('file: send one file at a time');
    if (code === 'FST_FIELDS_LIMIT_REACHED' || code === 'FST_PARTS_LIMIT_REACHED') throw new Invalid('Too many form fields');
    if (error instanceof DomainError) throw error;
    // Anything else here is the body itself (busboy: "Unexpected end of multipart data", "Malformed part header"):
    // the client's to fix, never a 500.
    throw new Invalid(`The form could not be read as multipart/form-data: ${(error as Error).message}`);
  }
  if (!file || file.content.length === 0) throw new Invalid('file: choose a PDF, JPEG or PNG file to upload');
  return { fields, file };
}

/** Upload, review (approve / reject), and links for View, Download and Share. */
export const documentRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store }) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 10, fieldSize: 1000, parts: 12 },
  });

  const params = uuidParams('Document');
  // The body is multipart (read by readUpload), so only the answers are declared.
  app.post(
    '/api/documents',
    {
      schema: {
        summary: 'Upload Document: a PDF, JPEG or PNG of at most 10 MB, linked to one of your deals',
        consumes: ['multipart/form-data'],
        response: { 201: documentUploadedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const { fields, file } = await readUpload(request);
      const input = uploadDocumentFields.parse(fields);
      const sniffed = await sniffDocument(file.content);
      if (!sniffed.ok) {
        throw new Invalid(
          `file: only PDF, JPEG and PNG documents are accepted, and this file's content is ${sniffed.found ?? 'none of them'}`,
        );
      }
      const deal = foldEvents(dealDecider, await store.readStream(streams.deal(input.dealId)));
      if (deal.status === 'none' || !deal.owners.includes(user.firmId)) throw new NotFound(`Deal ${input.dealId} not found`);

      const documentId = randomUUID();
      const sha256 = createHash('sha256').update(file.content).digest('hex');
      await storeFile(pool, documentId, file.content, sha256);
      try {
        const { position } = await handleCommand(
          store,
          streams.document(documentId),
          documentDecider,
          {
            type: 'UploadDocument',
            document: {
              documentId,
              dealId: input.dealId,
              // A file name PostgreSQL cannot store (a NUL decoded from filename*=) is not worth refusing the file for.
              name: (input.name || (isStorableText(file.name) ? file.name : '') || 'Document').slice(0, 200),
              documentType: input.type,
              contentType: sniffed.contentType,
              size: file.content.length,
              sha256,
              uploadedBy: { userId: user.id },
              ownerIds: [...deal.owners],
            },
          },
          metadata,
        );
        return withPosition(reply, position).status(201).send({ id: documentId, sha256, contentType: sniffed.contentType });
      } catch (error) {
        // No event, no document: the bytes go too.
        await removeFile(pool, documentId).catch(() => undefined);
        throw error;
      }
    },
  );

  app.patch(
    '/api/documents/:id',
    {
      schema: {
        summary: 'Approve or reject a document (or put it back to pending)',
        params,
        body: changeDocumentInput,
        response: { 200: documentChangedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const documentId = request.params.id;
      const { status } = request.body;
      const { state, position } = await handleCommand(
        store,
        streams.document(documentId),
        documentDecider,
        { type: 'ReviewDocument', documentId, firmId: user.firmId, status },
        metadata,
      );
      if (state.status === 'none') throw new NotFound(`Document ${documentId} not found`);
      return withPosition(reply, position).send({ id: documentId, status: state.status });
    },
  );

  const link = async (documentId: string, disposition: Disposition, seconds: number): Promise<DocumentLink> => {
    const expires = Math.floor(Date.now() / 1000) + seconds;
    const url = signLink(await signingSecret(pool), { documentId, disposition, expires });
    return { url, expiresAt: new Date(expires * 1000).toISOString() };
  };

  /** Download: counted (an event), then a short-lived link that saves the file. */
  app.post(
    '/api/documents/:id/downloads',
    {
      schema: {
        summary: 'Download: counts the download and answers a link valid for five minutes',
        params,
        response: { 201: documentLink, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const documentId = request.params.id;
      const { position } = await handleCommand(
        store,
        streams.document(documentId),
        documentDecider,
        { type: 'RecordDownload', documentId, firmId: user.firmId },
        metadata,
      );
      return withPosition(reply, position)
        .status(201)
        .send(await link(documentId, 'attachment', VIEW_LINK_SECONDS));
    },
  );

  /** View (inline preview) and Share (a link for someone without an account, valid for seven days). */
  for (const kind of ['preview', 'share'] as const) {
    const summary =
      kind === 'share'
        ? 'Share: a link that works without an account for seven days'
        : 'View: a link that shows the file inline for five minutes';
    app.post(
      `/api/documents/:id/${kind}`,
      { schema: { summary, params, response: { 200: documentLink, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404) } } },
      async (request) => {
        const { user } = signedIn(request);
        const documentId = request.params.id;
        visibleTo(foldEvents(documentDecider, await store.readStream(streams.document(documentId))), documentId, user.firmId);
        return kind === 'share' ? link(documentId, 'attachment', SHARE_LINK_SECONDS) : link(documentId, 'inline', VIEW_LINK_SECONDS);
      },
    );
  }
};
