import { errorAnswers, rebuildRequest, rebuildStatusView, SIGNED_IN_ERRORS, type RebuildStatusView } from '@pf/events';
import { Conflict, Forbidden, Invalid, isPlatformAdmin, requireUser, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { liveRebuild, RebuildRunning, type RebuildProgress } from './live-rebuild';
import { selectParts, UnknownReadModel } from './parts';
import { progressLine } from './progress-line';

/**
 * POST /api/admin/rebuild starts a live rebuild in this process (202; 409 while one runs here or elsewhere);
 * GET /api/admin/rebuild says how it stands. The same rebuild as `npm run rebuild`.
 */
export const adminRebuildRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, config, log }) => {
  let status: RebuildStatusView = {
    running: false,
    phase: null,
    parts: [],
    done: 0,
    total: 0,
    eventsPerSecond: 0,
    secondsLeft: null,
    line: null,
    error: null,
  };
  const errors = errorAnswers(...SIGNED_IN_ERRORS, 403, 409);
  const admin = (userId: string) => {
    if (!isPlatformAdmin(config, userId)) throw new Forbidden('Only an administrator may rebuild the read models');
  };
  const show = (progress: RebuildProgress): RebuildStatusView => ({
    running: progress.phase !== 'done',
    phase: progress.phase,
    parts: [...progress.parts],
    done: progress.done,
    total: progress.total,
    eventsPerSecond: Math.round(progress.eventsPerSecond),
    secondsLeft: progress.secondsLeft === null ? null : Math.round(progress.secondsLeft),
    line: progressLine(progress),
    error: null,
  });

  app.get(
    '/api/admin/rebuild',
    { schema: { summary: 'How the live rebuild started here stands', response: { 200: rebuildStatusView, ...errors } } },
    async (request) => {
      admin(requireUser(request).id);
      return status;
    },
  );

  app.post(
    '/api/admin/rebuild',
    {
      schema: {
        summary: 'Rebuild the read models while the product runs',
        body: rebuildRequest,
        response: { 202: rebuildStatusView, ...errors },
      },
    },
    async (request, reply) => {
      admin(requireUser(request).id);
      const only = request.body.only;
      try {
        selectParts(only);
      } catch (error) {
        if (error instanceof UnknownReadModel) throw new Invalid(`only: ${error.message}`);
        throw error;
      }
      if (status.running) throw new Conflict('A rebuild of the read models is already running');
      status = { ...status, running: true, phase: 'preparing', parts: only ?? [], done: 0, total: 0, line: null, error: null };
      // Answered once the rebuild holds its lock (or failed to take it), then it runs on in the background.
      const started = new Promise<void>((resolve, reject) => {
        liveRebuild(pool, store, {
          only,
          onProgress: (progress) => {
            status = show(progress);
            resolve();
          },
        }).then(
          (result) =>
            log.info(
              { applied: result.applied, seconds: result.seconds, switchMs: result.switchMs, parts: result.parts },
              'Live rebuild done',
            ),
          (error: Error) => {
            status = { ...status, running: false, phase: 'failed', error: error.message };
            if (error instanceof RebuildRunning) reject(new Conflict(error.message));
            else log.error({ err: error }, 'Live rebuild failed');
            resolve();
          },
        );
      });
      await started;
      return reply.status(202).send(status);
    },
  );
};
