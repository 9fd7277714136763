import { createServer } from 'node:net';

/**
 * Servers for the EventStoreDB and Kafka integration suites: the one named in the environment
 * (EVENTSTORE_URL, KAFKA_BROKERS), else a testcontainers container when a container runtime is
 * reachable, else a reason to skip that the suite prints. Detection fails in well under a second
 * when there is no runtime, so `npm test` stays quick on machines without Docker.
 */
export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Decided up front (so a suite can be skipped at collection); the container itself starts in `start`. */
export type ServerTarget =
  | { readonly available: true; readonly source: string; start(): Promise<RunningServer> }
  | { readonly available: false; readonly reason: string };

const given = (url: string): ServerTarget => ({
  available: true,
  source: 'given by the environment',
  start: async () => ({ url, stop: async () => undefined }),
});

const ESDB_IMAGE = process.env.ESDB_TEST_IMAGE ?? 'eventstore/eventstore:24.10';
const KAFKA_IMAGE = process.env.KAFKA_TEST_IMAGE ?? 'apache/kafka:3.9.1';

let runtimeProbe: Promise<string | null> | null = null;

/** Null when a container runtime answers; otherwise testcontainers' own error message. */
function containerRuntimeProblem(): Promise<string | null> {
  runtimeProbe ??= import('testcontainers')
    .then(({ getContainerRuntimeClient }) => getContainerRuntimeClient())
    .then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  return runtimeProbe;
}

const skipReason = (variable: string, problem: string) => `no ${variable} and no container runtime (testcontainers: ${problem})`;

export async function eventStoreDbTarget(): Promise<ServerTarget> {
  if (process.env.EVENTSTORE_URL) return given(process.env.EVENTSTORE_URL);
  const problem = await containerRuntimeProblem();
  if (problem) return { available: false, reason: skipReason('EVENTSTORE_URL', problem) };
  return { available: true, source: `container ${ESDB_IMAGE}`, start: startEventStoreDb };
}

async function startEventStoreDb(): Promise<RunningServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(ESDB_IMAGE)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_MEM_DB: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_CLUSTER_SIZE: '1',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(120_000)
    .start();
  const url = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  return { url, stop: async () => void (await container.stop()) };
}

/** A free host port: Kafka advertises its address to clients, so host and container ports must agree. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function kafkaTarget(): Promise<ServerTarget> {
  if (process.env.KAFKA_BROKERS) return given(process.env.KAFKA_BROKERS);
  const problem = await containerRuntimeProblem();
  if (problem) return { available: false, reason: skipReason('KAFKA_BROKERS', problem) };
  return { available: true, source: `container ${KAFKA_IMAGE}`, start: startKafka };
}

async function startKafka(): Promise<RunningServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const port = await freePort();
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: `PLAINTEXT://:${port},CONTROLLER://:9093`,
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://localhost:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withExposedPorts({ container: port, host: port })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(120_000)
    .start();
  return { url: `localhost:${port}`, stop: async () => void (await container.stop()) };
}

/** The one line a skipped suite prints, so `npm test` says plainly what did not run and why. */
export function reportSkipped(suite: string, reason: string): void {
  console.log(`[tests] ${suite} suite SKIPPED: ${reason}`);
}
