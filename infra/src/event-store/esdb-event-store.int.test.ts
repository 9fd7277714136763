import { describe, it } from 'vitest';
import { eventStoreDbTarget, reportSkipped } from '../testing/containers';
import { EsdbEventStore } from './esdb-event-store';
import { eventStoreContract } from './event-store.contract';

const target = await eventStoreDbTarget();

if (target.available) {
  console.log(`[tests] EventStoreDB suite: ${target.source}`);
  eventStoreContract('EventStoreDB', async () => {
    const server = await target.start();
    const store = new EsdbEventStore(server.url);
    return {
      store,
      async cleanup() {
        await store.close();
        await server.stop();
      },
    };
  });
} else {
  reportSkipped('EventStoreDB', target.reason);
  describe.skip(`event store contract: EventStoreDB (skipped: ${target.reason})`, () => {
    it('runs when EVENTSTORE_URL is set or a container runtime is available', () => undefined);
  });
}
