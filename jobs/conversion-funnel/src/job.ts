import type { FeedEnvelope } from '@pf/events';
import { loadCheckpoint, saveCheckpoint } from './checkpoint';
import { applyEvent } from './funnel';
import { formatReport } from './report';
import type { EventSource } from './source';

export interface FunnelJobOptions {
  readonly source: EventSource;
  readonly checkpointFile: string;
  readonly print: (text: string) => void;
  /** The least time between two printed reports (the last change is always printed). */
  readonly printEveryMs?: number;
}

export interface FunnelJob {
  /** Resolves when the source stops by itself (a refused token rejects it). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The job: folds each batch into the funnel, saves figures and position together (then, and only then, the
 * batch counts as handled), and prints the report when it changed, at most once every `printEveryMs`.
 */
export async function startFunnelJob(options: FunnelJobOptions): Promise<FunnelJob> {
  const printEveryMs = options.printEveryMs ?? 1_000;
  const loaded = await loadCheckpoint(options.checkpointFile);
  const { state } = loaded;
  let { position } = loaded;
  options.print(
    position ? `Resuming from position ${position} (${options.source.name})` : `Starting from the first event (${options.source.name})`,
  );
  if (position) options.print(formatReport(state, position, new Date()));

  let lastPrinted = 0;
  let pending: NodeJS.Timeout | null = null;
  const printNow = () => {
    pending = null;
    lastPrinted = Date.now();
    options.print(formatReport(state, position, new Date()));
  };
  const changed = () => {
    if (pending) return;
    const wait = lastPrinted + printEveryMs - Date.now();
    if (wait <= 0) printNow();
    else pending = setTimeout(printNow, wait);
  };

  const onBatch = async (events: readonly FeedEnvelope[]) => {
    let applied = 0;
    for (const event of events) if (applyEvent(state, event)) applied++;
    position = events[events.length - 1]!.position;
    await saveCheckpoint(options.checkpointFile, { position, state });
    if (applied > 0) changed();
  };
  const done = options.source.start(position, onBatch);
  return {
    done,
    async stop() {
      await options.source.close();
      if (pending) {
        clearTimeout(pending);
        printNow();
      }
      options.print(`Stopped at position ${position ?? 'start'}`);
    },
  };
}
