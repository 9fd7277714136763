import { createHash, randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import {
  documentUploadedAnswer,
  errorAnswers,
  isStorableText,
  MAX_DOCUMENT_BYTES,
  SIGNED_IN_ERRORS,
  streams,
  uploadDocumentFields,
} from '@pf/events';
import { DomainError, Invalid, isDatabaseUnavailable, NotFound, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { dealDecider } from '../deal/deal';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { documentDecider } from './document';
import { removeAbandonedChunks, removeFile } from './file-store';
import { commitFile, TooLarge, writeFileChunks, type WrittenFile } from './file-write';

/** Chunks of an upload whose process died before it finished are this old at most when the next one starts. */
const ABANDONED_UPLOAD_MS = 60 * 60_000;

interface Upload {
  readonly fields: Record<string, string>;
  readonly file: WrittenFile & { readonly name: string };
}

/**
 * Reads the form as it arrives: its text fields, and one file streamed into the file store under `documentId`
 * (file-write.ts), whatever order the parts come in. Refused, nothing of it stays stored.
 */
async function readUpload(request: FastifyRequest, pool: pg.Pool, documentId: string): Promise<Upload> {
  if (!request.isMultipart()) throw new Invalid('Send the document as multipart/form-data with a file field');
  const fields: Record<string, string> = {};
  let file: Upload['file'] | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new Invalid(`${part.fieldname}: the file goes in the field named file`);
        const written = await writeFileChunks(pool, documentId, part.file, () => part.file.truncated);
        // A part whose filename is empty arrives without one (busboy): the document is then named from its fields.
        file = { ...written, name: part.filename ?? '' };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (file) await removeFile(pool, documentId).catch(() => undefined);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new TooLarge();
    if (code === 'FST_FILES_LIMIT_REACHED') throw new Invalid('file: send one file at a time');
    if (code === 'FST_FIELDS_LIMIT_REACHED' || code === 'FST_PARTS_LIMIT_REACHED') throw new Invalid('Too many form fields');
    if (error instanceof DomainError || isDatabaseUnavailable(error)) throw error;
    // Anything else here is the body itself (busboy: "Unexpected end of multipart data", "Malformed part header"):
    // the client's to fix, never a 500.
    throw new Invalid(`The form could not be read as multipart/form-data: ${(error as Error).message}`);
  }
  if (!file) throw new Invalid('file: choose a PDF, JPEG or PNG file to upload');
  return { fields, file };
}

/**
 * What makes two uploads the same request for an Idempotency-Key: the fields, the file's name and its bytes'
 * hash (not the raw body: a browser's retry of the same form has a new multipart boundary).
 */
const uploadDigest = ({ fields, file }: Upload) =>
  createHash('sha256')
    .update(JSON.stringify([Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)), file.name, file.sha256]))
    .digest('hex');

/** POST /api/documents: Upload Document (docs/behaviour/documents.md). */
export const documentUploadRoute: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, config, log }) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 10, fieldSize: 1000, parts: 12 },
  });
  const quotaBytes = config.UPLOAD_QUOTA_MB_PER_FIRM * 1024 * 1024;
  void removeAbandonedChunks(pool, ABANDONED_UPLOAD_MS).catch((error: unknown) =>
    log.warn({ err: error }, 'could not remove the chunks of abandoned uploads'),
  );

  // The body is multipart, streamed by readUpload (so the Idempotency-Key is claimed after it: 'after-body'); only
  // the answers are declared.
  app.post(
    '/api/documents',
    {
      config: { idempotency: 'after-body' },
      schema: {
        summary: "Upload Document: a PDF, JPEG or PNG of at most 10 MB, linked to one of your deals, within your firm's upload quota",
        consumes: ['multipart/form-data'],
        response: { 201: documentUploadedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const documentId = randomUUID();
      const upload = await readUpload(request, pool, documentId);
      const { file } = upload;
      try {
        const input = uploadDocumentFields.parse(upload.fields);
        // A retry of an upload already answered gets that answer; its bytes, stored again meanwhile, go.
        if (request.idempotentAfterBody && !(await request.idempotentAfterBody(uploadDigest(upload)))) {
          await removeFile(pool, documentId);
          return reply;
        }
        const deal = foldEvents(dealDecider, await store.readStream(streams.deal(input.dealId)));
        if (deal.status === 'none' || !deal.owners.includes(user.firmId)) throw new NotFound(`Deal ${input.dealId} not found`);
        await commitFile(pool, file, user.firmId, quotaBytes);
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
              contentType: file.contentType,
              size: file.size,
              sha256: file.sha256,
              uploadedBy: { userId: user.id },
              ownerIds: [...deal.owners],
            },
          },
          metadata,
        );
        return withPosition(reply, position).status(201).send({ id: documentId, sha256: file.sha256, contentType: file.contentType });
      } catch (error) {
        // No event, no document: the bytes go too.
        await removeFile(pool, documentId).catch(() => undefined);
        throw error;
      }
    },
  );
};
