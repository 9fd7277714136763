import { z } from 'zod';
import { feedSource } from './feed-source';
import { FUNNEL_EVENT_TYPES } from './funnel';
import { startFunnelJob } from './job';
import { kafkaSource } from './kafka-source';

/** The job's settings (README.md), checked once: a missing or wrong one stops it with one line naming it. */
const settings = z
  .object({
    PF_URL: z.url({ error: 'PF_URL must be the platform address, such as http://localhost:5000' }).default('http://localhost:5000'),
    PF_TOKEN: z.string().optional(),
    KAFKA_BROKERS: z.string().optional(),
    KAFKA_TOPIC: z.string().default('property-finance.events'),
    KAFKA_GROUP: z.string().default('conversion-funnel'),
    FUNNEL_CHECKPOINT: z.string().default('conversion-funnel.checkpoint.json'),
  })
  .refine((env) => env.KAFKA_BROKERS || env.PF_TOKEN, {
    error: 'PF_TOKEN: set it to an API token with the scope events:read (Settings → API tokens)',
    path: ['PF_TOKEN'],
  });

const parsed = settings.safeParse(process.env);
if (!parsed.success) {
  const issue = parsed.error.issues[0]!;
  console.error(`conversion-funnel: ${issue.path.join('.')}: ${issue.message}`);
  process.exit(2);
}
const env = parsed.data;
const log = (line: string) => console.error(line);
const brokers =
  env.KAFKA_BROKERS?.split(',')
    .map((broker) => broker.trim())
    .filter(Boolean) ?? [];
const source =
  brokers.length > 0
    ? kafkaSource({ brokers, topic: env.KAFKA_TOPIC, groupId: env.KAFKA_GROUP, log })
    : feedSource({ baseUrl: env.PF_URL.replace(/\/$/, ''), token: env.PF_TOKEN!, types: FUNNEL_EVENT_TYPES, log });

const job = await startFunnelJob({ source, checkpointFile: env.FUNNEL_CHECKPOINT, print: (text) => console.log(text) });
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await job.stop();
  process.exit(code);
};
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
job.done.then(
  () => stop(0),
  (error: unknown) => {
    console.error(`conversion-funnel: ${(error as Error).message}`);
    void stop(1);
  },
);
