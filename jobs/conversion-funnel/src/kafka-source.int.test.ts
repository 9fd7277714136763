import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaTarget, reportSkipped, type RunningServer } from '../../../infra/src/testing/containers';
import { createTestDatabase, type TestDatabase } from '../../../infra/src/testing/database';
import { startSingleNode, type RunningServer as SingleNode } from '../../../infra/single-node/src/server';
import { ApiClient } from '../../../infra/single-node/src/testing/api-client';
import { readFeedPage } from '../../../infra/single-node/src/testing/event-feed';
import { testServerEnv } from '../../../infra/single-node/src/testing/server-env';
import { loadCheckpoint } from './checkpoint';
import { applyEvent, emptyFunnel, FUNNEL_EVENT_TYPES } from './funnel';
import { JobProcess } from './testing/job-process';

const target = await kafkaTarget();

/**
 * The same job reading the Kafka topic (KAFKA_BROKERS) instead of the feed: a real broker (KAFKA_BROKERS, or a
 * container), a single node relaying to it. With one firm and no automation, the topic's funnel must equal the
 * feed's, and a restart must count nothing twice.
 */
if (!target.available) {
  reportSkipped('conversion-funnel on Kafka', target.reason);
  describe.skip(`the conversion-funnel job on Kafka (skipped: ${target.reason})`, () => {
    it('runs when KAFKA_BROKERS is set or a container runtime is available', () => undefined);
  });
} else {
  describe('the conversion-funnel job on Kafka', () => {
    let broker: RunningServer;
    let database: TestDatabase;
    let node: SingleNode;
    let directory: string;
    const topic = `funnel-${randomUUID()}`;
    beforeAll(async () => {
      broker = await target.start();
      database = await createTestDatabase();
      node = await startSingleNode(testServerEnv(database.url, { KAFKA_BROKERS: broker.url, KAFKA_TOPIC: topic }));
      directory = await mkdtemp(path.join(tmpdir(), 'funnel-kafka-'));
    }, 180_000);
    afterAll(async () => {
      await node?.close();
      await database?.drop();
      await broker?.stop();
      await rm(directory, { recursive: true, force: true });
    });

    it('folds the topic into the same funnel as the feed, and resumes from its committed offsets', async () => {
      const admin = await ApiClient.signIn(node.url);
      expect((await admin.post('/api/seed-demo')).status).toBe(201);
      const { token } = (await admin.post('/api/auth/tokens', { name: 'Check', scopes: ['events:read'] })).body as { token: string };
      const expected = emptyFunnel();
      for (const event of (await readFeedPage(node.url, token, `types=${FUNNEL_EVENT_TYPES.join(',')}`)).events)
        applyEvent(expected, event);
      const env = {
        KAFKA_BROKERS: broker.url,
        KAFKA_TOPIC: topic,
        KAFKA_GROUP: `funnel-${randomUUID()}`,
        FUNNEL_CHECKPOINT: path.join(directory, 'checkpoint.json'),
      };

      const first = new JobProcess(env);
      await first.until(
        () => first.reports().some((report) => report.Borrowers === expected.borrowers.length),
        'the demo borrowers are counted',
      );
      expect(await first.stop('SIGTERM')).toBe(0);
      const second = new JobProcess(env);
      await second.until(() => second.output.some((line) => line.startsWith('Resuming from position')), 'it resumed');
      expect((await admin.post('/api/agents', { name: 'Kafka Borrower', type: 'borrower' })).status).toBe(201);
      await second.until(
        () => second.reports().some((report) => report.Borrowers === expected.borrowers.length + 1),
        'the new borrower is counted',
      );
      expect(await second.stop('SIGTERM')).toBe(0);
      const { state } = await loadCheckpoint(env.FUNNEL_CHECKPOINT);
      expect(state.daily).toEqual(expected.daily);
      expect(state.borrowers).toHaveLength(expected.borrowers.length + 1);
      expect(state.matched.sort()).toEqual(expected.matched.sort());
    }, 180_000);
  });
}
