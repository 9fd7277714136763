import type pg from 'pg';
import type { RecordedEvent } from '@pf/infra';
import type { ProjectorMemory } from '../projection-kit/memory';
import { READ_MODELS_PROJECTION } from '../projector/checkpoint';
import { readModels } from '../read-models';
import {
  ANALYTICS_FACT_TABLES,
  ANALYTICS_FACTS_CHECKPOINT,
  ANALYTICS_FACTS_CONSUMER,
  ANALYTICS_FOLD_INDEXES,
  projectAnalytics,
} from '../read-models/analytics';
import {
  countDaily,
  DAILY_ANALYTICS_CHECKPOINT,
  DAILY_ANALYTICS_CONSUMER,
  DAILY_ANALYTICS_TABLES,
} from '../daily-analytics/daily-analytics';

/**
 * One thing a live rebuild can rebuild: a read model, the analytics facts or the daily analytics; its tables and
 * whose checkpoint they stand at.
 */
export interface RebuildPart {
  readonly name: string;
  readonly tables: readonly string[];
  /** The follower whose checkpoint these tables stand at (the projector's, or an analytics consumer's). */
  readonly checkpoint: string;
  /**
   * The analytics consumer (analytics-source.ts) whose tables these are: the switch moves its watermark with its
   * checkpoint, so it skips what the rebuilt rows hold, from the event store or from Kafka.
   */
  readonly consumer?: string;
  /** Names of the parts whose rows its projection reads (rebuilt with it). */
  readonly reads: readonly string[];
  /** Names of the parts whose rows it rewrites after theirs (it runs whenever one of them is rebuilt). */
  readonly rewrites: readonly string[];
  /** Indexes its fold reads through, kept while the rows go in (ReadModel.foldIndexes). */
  readonly foldIndexes: readonly string[];
  project(client: pg.ClientBase, batch: readonly RecordedEvent[], memory?: ProjectorMemory): Promise<void>;
}

/** The analytics facts: folded by their own consumer, so their own checkpoint (read-models/analytics/consumer.ts). */
const ANALYTICS_PART = 'analytics';
/**
 * The daily counts of Analytics (daily-analytics/daily-analytics.ts): rebuilt with the rest, so that the first start
 * after a rebuild or a restore resumes their consumer where the rebuilt counts stand rather than at the first
 * event (docs/decisions/bounded-restart.md).
 */
const DAILY_ANALYTICS_PART = 'daily-analytics';

/** Every part, in the order their batches are applied (the registry's order; analytics last). */
export const REBUILD_PARTS: readonly RebuildPart[] = [
  ...readModels.map((model): RebuildPart => ({
    name: model.name,
    tables: model.tables,
    checkpoint: READ_MODELS_PROJECTION,
    reads: model.reads ?? [],
    rewrites: model.rewrites ?? [],
    foldIndexes: model.foldIndexes ?? [],
    project: (client, batch, memory) => model.project(client, batch, memory),
  })),
  {
    name: ANALYTICS_PART,
    tables: ANALYTICS_FACT_TABLES,
    checkpoint: ANALYTICS_FACTS_CHECKPOINT,
    consumer: ANALYTICS_FACTS_CONSUMER,
    reads: [],
    rewrites: [],
    foldIndexes: ANALYTICS_FOLD_INDEXES,
    project: (client, batch) => projectAnalytics(client, batch),
  },
  {
    name: DAILY_ANALYTICS_PART,
    tables: DAILY_ANALYTICS_TABLES,
    checkpoint: DAILY_ANALYTICS_CHECKPOINT,
    consumer: DAILY_ANALYTICS_CONSUMER,
    reads: [],
    rewrites: [],
    foldIndexes: [],
    project: (client, batch) => countDaily(client, batch),
  },
];

export class UnknownReadModel extends Error {}

/**
 * The parts `only` names with every part they read, and every part that rewrites their rows (the erasure step, so
 * `--only deals` does not bring back a deleted person's words), in applying order; all of them without `only`.
 */
export function selectParts(only?: readonly string[]): RebuildPart[] {
  if (!only || only.length === 0) return [...REBUILD_PARTS];
  const byName = new Map(REBUILD_PARTS.map((part) => [part.name, part]));
  const wanted = new Set<string>();
  const add = (name: string) => {
    const part = byName.get(name);
    if (!part) throw new UnknownReadModel(`Unknown read model "${name}": choose from ${[...byName.keys()].join(', ')}`);
    if (wanted.has(name)) return;
    wanted.add(name);
    part.reads.forEach(add);
  };
  only.forEach(add);
  // Not its reads: those not rebuilt it reads live, as they stand at the head (so it erases at least as much).
  for (const part of REBUILD_PARTS) if (part.rewrites.some((name) => wanted.has(name))) wanted.add(part.name);
  return REBUILD_PARTS.filter((part) => wanted.has(part.name));
}

/**
 * The parts in `lanes` groups that can be folded side by side: parts that read one another's rows stay in one
 * lane (in applying order); the independent groups are dealt to the lanes, heaviest first.
 */
export function planLanes(parts: readonly RebuildPart[], lanes: number): RebuildPart[][] {
  const names = new Set(parts.map((p) => p.name));
  const group = new Map(parts.map((p) => [p.name, p.name]));
  const find = (name: string): string => (group.get(name) === name ? name : find(group.get(name)!));
  for (const part of parts) for (const read of part.reads) if (names.has(read)) group.set(find(read), find(part.name));
  const groups = new Map<string, RebuildPart[]>();
  for (const part of parts) {
    const root = find(part.name);
    groups.set(root, [...(groups.get(root) ?? []), part]);
  }
  const sorted = [...groups.values()].sort((a, b) => weight(b) - weight(a));
  const plan: RebuildPart[][] = Array.from({ length: Math.max(1, Math.min(lanes, sorted.length)) }, () => []);
  for (const members of sorted) {
    const lightest = plan.reduce((best, lane) => (weight(lane) < weight(best) ? lane : best));
    lightest.push(...members);
  }
  // Within a lane, the registry's order (a part after the parts it reads).
  const order = new Map(REBUILD_PARTS.map((p, index) => [p.name, index]));
  return plan.filter((lane) => lane.length > 0).map((lane) => lane.sort((a, b) => order.get(a.name)! - order.get(b.name)!));
}

/** A rough cost of folding a part: how many tables it writes. */
const weight = (parts: readonly RebuildPart[]) => parts.reduce((sum, part) => sum + part.tables.length, 0);
