import {
  changeDocumentInput,
  documentChangedAnswer,
  documentLink,
  errorAnswers,
  SIGNED_IN_ERRORS,
  streams,
  uuidParams,
  type DocumentLink,
} from '@pf/events';
import { NotFound, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { documentDecider, visibleTo } from './document';
import { signingSecret } from './file-store';
import { signLink, type Disposition } from './signed-link';
import { documentUploadRoute } from './upload-route';

const VIEW_LINK_SECONDS = 5 * 60;
const SHARE_LINK_SECONDS = 7 * 24 * 60 * 60;
/** Upload (upload-route.ts), review (approve / reject), and links for View, Download and Share. */
export const documentRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, context) => {
  const { pool, store } = context;
  await app.register(documentUploadRoute, context);
  const params = uuidParams('Document');

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
      config: { roles: 'anyone-signed-in' },
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
      {
        // View only reads; Share is a write, refused to an auditor in its own words (docs/decisions/firms-and-visibility.md).
        config: kind === 'share' ? { refusedAs: 'share a document outside the firm' } : { roles: 'anyone-signed-in' },
        schema: { summary, params, response: { 200: documentLink, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404) } },
      },
      async (request) => {
        const { user } = signedIn(request);
        const documentId = request.params.id;
        visibleTo(foldEvents(documentDecider, await store.readStream(streams.document(documentId))), documentId, user.firmId);
        return kind === 'share' ? link(documentId, 'attachment', SHARE_LINK_SECONDS) : link(documentId, 'inline', VIEW_LINK_SECONDS);
      },
    );
  }
};
