import { httpCommandClient, runStandalone } from '@pf/infra';
import { attachRealtimeGateway } from './gateway';

/**
 * The gateway on its own (distributed deployment): /ws, GET /healthz and GET /readyz (503 until it has caught up
 * with the event store) on PORT. Sessions live in PostgreSQL; events there too unless EVENTSTORE_URL selects EventStoreDB.
 */
await runStandalone(
  'realtime-gateway',
  [],
  async (app, context) => {
    const gateway = attachRealtimeGateway(app.server, {
      ...context,
      commands: httpCommandClient(context.config.COMMAND_SERVICE_URL!),
    });
    return { ready: gateway.ready, close: () => gateway.close() };
  },
  ['COMMAND_SERVICE_URL'],
);
