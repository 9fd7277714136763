import type { HistoryEvent } from '@pf/events';
import { useEffect, useState } from 'react';

/** Spec-free pacing of the replay: one event every 0.7 s reads like the live conversation did. */
const REPLAY_STEP_MS = 700;

/**
 * The scrubber's state: which event is looked at (null: the latest, following live arrivals), replay, and
 * live arrivals paused (the list shown stops at the count it had; new events wait, counted).
 */
export function useReplay(all: readonly HistoryEvent[]) {
  const [cursor, setCursor] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [frozenAt, setFrozenAt] = useState<number | null>(null);
  const events = frozenAt === null ? all : all.slice(0, frozenAt);
  const last = events.length - 1;
  const index = cursor === null ? last : Math.min(cursor, last);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      setCursor((current) => {
        const next = (current ?? last) + 1;
        if (next >= last) {
          setPlaying(false);
          return null;
        }
        return next;
      });
    }, REPLAY_STEP_MS);
    return () => clearInterval(timer);
  }, [playing, last]);

  return {
    events,
    index,
    following: cursor === null,
    playing,
    waiting: frozenAt === null ? 0 : all.length - frozenAt,
    live: frozenAt === null,
    /** Looks at an event; the last one means "follow what arrives". */
    pick: (i: number) => {
      setPlaying(false);
      setCursor(i >= last ? null : Math.max(0, i));
    },
    play: () => {
      if (index >= last) setCursor(0);
      setPlaying(true);
    },
    pause: () => setPlaying(false),
    pauseLive: () => setFrozenAt(all.length),
    resumeLive: () => setFrozenAt(null),
  };
}
