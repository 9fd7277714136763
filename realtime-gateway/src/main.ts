import { createHttpServer, createLogger, httpCommandClient, loadConfig, openServiceContext } from '@pf/infra';
import { attachRealtimeGateway } from './gateway';

/** The gateway on its own (distributed deployment): /ws and GET /healthz on PORT. */
const config = loadConfig();
const missing = (['DATABASE_URL', 'COMMAND_SERVICE_URL'] as const).filter((name) => !config[name]);
for (const name of missing) process.stderr.write(`Missing setting ${name}: the standalone realtime gateway needs it\n`);
if (missing.length > 0) process.exit(78);

const log = createLogger(config.LOG_LEVEL, 'realtime-gateway');
// Sessions live in PostgreSQL; events there too unless EVENTSTORE_URL selects EventStoreDB.
const context = await openServiceContext(config, log, config.DATABASE_URL!, []);
const app = await createHttpServer(config, log);
const gateway = attachRealtimeGateway(app.server, {
  ...context,
  commands: httpCommandClient(config.COMMAND_SERVICE_URL!),
});
let ready = false;
void gateway.ready.then(() => (ready = true));
app.get('/healthz', async (_request, reply) =>
  ready ? { status: 'ok' } : reply.status(503).send({ message: 'Catching up with the event store' }),
);
await app.listen({ port: config.PORT, host: config.HOST });

const stop = async () => {
  await gateway.close();
  await app.close();
  await context.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
