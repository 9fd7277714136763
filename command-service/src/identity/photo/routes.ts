import { createHash, randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import {
  errorAnswers,
  MAX_PHOTO_BYTES,
  PHOTO_NOT_AN_IMAGE,
  PHOTO_TOO_LARGE,
  photoChangedAnswer,
  photoFile,
  photoParams,
  SIGNED_IN_ERRORS,
  streams,
} from '@pf/events';
import { DomainError, inTransaction, Invalid, NotFound, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { handleCommand } from '../../handle-command';
import { signedIn, withPosition } from '../../http-helpers';
import { photoDecider } from './photo';
import { resizePhoto } from './resize';

class PhotoTooLarge extends DomainError {
  constructor() {
    super(PHOTO_TOO_LARGE, 413);
  }
}

/**
 * Settings → Profile → Change Photo (docs/behaviour/settings.md, "Profile photo"). POST /api/auth/photo takes one
 * file (multipart, field `photo`), refuses it with the reason unless it is a JPG, PNG or GIF of at most 5 MB by
 * its content, and stores it resized beside the account; the event records its id and hash. GET
 * /api/auth/photos/:photoId answers the bytes to anyone signed in: the id reaches a person only where its owner
 * is shown to them (their own account, the people of a conversation they may read), like a document's link.
 */
export const photoRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, sessions }) => {
  await app.register(multipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 0, parts: 1 } });

  app.post(
    '/api/auth/photo',
    {
      schema: {
        summary: 'Change Photo: a JPG, PNG or GIF of at most 5 MB (judged by its content), stored resized to 128 × 128',
        consumes: ['multipart/form-data'],
        response: { 201: photoChangedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 409, 413) },
      },
      // The body is multipart, read by the route (so the Idempotency-Key is claimed after it, as a document's upload
      // does: docs/decisions/idempotency-keys.md); a file over 5 MB is refused before any key is claimed.
      config: { idempotency: 'after-body', roles: 'anyone-signed-in' },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      if (!request.isMultipart()) throw new Invalid('Send the photo as multipart/form-data with a file field named photo');
      let upload: Buffer | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file' || part.fieldname !== 'photo') throw new Invalid('photo: send one file, in the field named photo');
          upload = await part.toBuffer();
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PhotoTooLarge();
        if (error instanceof DomainError) throw error;
        if (code?.startsWith('FST_')) throw new Invalid('photo: send one file, in the field named photo');
        throw new Invalid(`The form could not be read as multipart/form-data: ${(error as Error).message}`);
      }
      if (!upload || upload.length === 0) throw new Invalid(`photo: the file is empty. ${PHOTO_NOT_AN_IMAGE}`);
      // A retry of a change already answered gets that answer.
      if (request.idempotentAfterBody && !(await request.idempotentAfterBody(createHash('sha256').update(upload).digest('hex'))))
        return reply;
      const resized = await resizePhoto(upload);
      const photoId = randomUUID();
      const sha256 = createHash('sha256').update(resized).digest('hex');
      await pool.query('insert into profile_photos (id, user_id, content_type, sha256, bytes) values ($1, $2, $3, $4, $5)', [
        photoId,
        user.id,
        'image/webp',
        sha256,
        resized,
      ]);
      try {
        const handled = await handleCommand(
          store,
          streams.user(user.id),
          photoDecider,
          { type: 'ChangeProfilePhoto', userId: user.id, photo: { photoId, sha256, size: resized.length } },
          metadata,
        );
        await makeCurrent(user.id, photoId);
        sessions.forgetUser(user.id);
        return withPosition(reply, handled.position).status(201).send({ photoId });
      } catch (error) {
        await pool.query('delete from profile_photos where id = $1', [photoId]);
        throw error;
      }
    },
  );

  app.delete(
    '/api/auth/photo',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Remove your profile photo',
        response: { 200: photoChangedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const handled = await handleCommand(
        store,
        streams.user(user.id),
        photoDecider,
        { type: 'RemoveProfilePhoto', userId: user.id },
        metadata,
      );
      await makeCurrent(user.id, null);
      sessions.forgetUser(user.id);
      return withPosition(reply, handled.position).send({ photoId: null });
    },
  );

  /** The account's photo is the one just recorded; the one it replaces goes (only the current photo is kept). */
  const makeCurrent = (userId: string, photoId: string | null) =>
    inTransaction(pool, async (client) => {
      await client.query('update users set photo_id = $2 where id = $1', [userId, photoId]);
      await client.query('delete from profile_photos where user_id = $1 and id is distinct from $2', [userId, photoId]);
    });

  app.get(
    '/api/auth/photos/:photoId',
    {
      schema: {
        summary: "A person's profile photo (WebP, 128 × 128), by the id their account or a conversation you may read names",
        params: photoParams,
        response: { 200: photoFile, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request, reply) => {
      signedIn(request);
      const found = await pool.query<{ bytes: Buffer }>('select bytes from profile_photos where id = $1', [request.params.photoId]);
      const photo = found.rows[0];
      if (!photo) throw new NotFound('That photo is no longer there');
      // A photo never changes under its id (a new photo gets a new one).
      return reply.header('content-type', 'image/webp').header('cache-control', 'private, max-age=31536000, immutable').send(photo.bytes);
    },
  );
};
