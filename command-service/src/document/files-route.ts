import { Readable } from 'node:stream';
import { errorAnswers, fileAnswer, signedLinkQuery, streams, uuidParams } from '@pf/events';
import { Forbidden, NotFound, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { foldEvents } from '../handle-command';
import { documentDecider } from './document';
import { readFile, signingSecret } from './file-store';
import { checkLink } from './signed-link';

const EXTENSION = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/**
 * GET /files/documents/:id?d&e&s: the bytes behind a signed link, no session needed (a Share link is for
 * people without an account). Outside /api/ so the proxy sends it to the command-service, which owns the files.
 */
export const documentFileRoute: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store }) => {
  const schema = {
    summary: 'The file behind a signed link (View, Download, Share); no session needed until the link expires',
    params: uuidParams('Document'),
    querystring: signedLinkQuery,
    response: { 200: fileAnswer, ...errorAnswers(400, 403, 404) },
  };
  app.get('/files/documents/:id', { schema }, async (request, reply) => {
    const documentId = request.params.id;
    const check = checkLink(await signingSecret(pool), documentId, request.query, Math.floor(Date.now() / 1000));
    if (!check.ok) throw new Forbidden(check.reason);
    const document = foldEvents(documentDecider, await store.readStream(streams.document(documentId)));
    const file = await readFile(pool, documentId);
    if (document.status === 'none' || !file) throw new NotFound(`Document ${documentId} not found`);
    const filename = document.name.toLowerCase().endsWith(`.${EXTENSION[document.contentType]}`)
      ? document.name
      : `${document.name}.${EXTENSION[document.contentType]}`;
    return (
      reply
        .header('content-type', document.contentType)
        .header('content-disposition', `${check.claims.disposition}; filename*=UTF-8''${encodeURIComponent(filename)}`)
        .header('cache-control', 'private, max-age=300')
        // The console shows previews in a frame of its own origin; nothing else may frame them.
        .header('content-security-policy', "frame-ancestors 'self'")
        .header('x-frame-options', 'SAMEORIGIN')
        .header('content-length', String(file.size))
        // A chunk at a time from the file store (file-store.ts), never the whole file in memory.
        .send(Readable.from(file.chunks))
    );
  });
};
