import { Intent } from '@blueprintjs/core';
import type { LeadView } from '@pf/events';
import { useEffect, useState } from 'react';
import { toastError } from '../../../lib/toaster';
import { MATCH_ANSWER_TIMEOUT_MS, useMatchRun, useRequestMatch } from '../api/matching';

const NO_ANSWER = 'The matcher has not answered; automation may be off';

/** The lead's last run as the read model has it; one left unanswered past the wait is said to be so. */
export function matchRunText(lead: LeadView, now: number): string | null {
  const run = lead.lastMatchRun;
  if (!run) return null;
  if (!run.finishedAt) return now - Date.parse(run.requestedAt) > MATCH_ANSWER_TIMEOUT_MS ? NO_ANSWER : 'Matching…';
  return run.newMatches === 0
    ? 'Last Match: no new match'
    : `Last Match: ${run.newMatches} new ${run.newMatches === 1 ? 'match' : 'matches'}`;
}

/**
 * Match: asks the matcher, then gives its answer (how many new matches, or its note saying why none) or, when
 * none comes in time, says so: with automation off nothing answers, and a spinner for ever would hide that.
 */
export function useMatchAction(lead: LeadView) {
  const match = useRequestMatch();
  const [requestId, setRequestId] = useState<string | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const run = useMatchRun(lead.id, requestId, gaveUp);
  const answered = run.data?.status === 'answered';
  useEffect(() => {
    if (!requestId || answered) return;
    const timer = setTimeout(() => setGaveUp(true), MATCH_ANSWER_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [requestId, answered]);

  const ask = () => {
    setGaveUp(false);
    setRequestId(null);
    match.mutateAsync(lead.id).then(
      (answer) => setRequestId(answer.requestId),
      (error: Error) => toastError(error.message),
    );
  };
  const found = run.data?.newMatches ?? 0;
  let result: string | null = null;
  if (answered) result = found > 0 ? `Found ${found} new ${found === 1 ? 'match' : 'matches'}` : (run.data!.note ?? 'No new match');
  else if (gaveUp) result = NO_ANSWER;
  return {
    ask,
    waiting: match.isPending || (requestId !== null && !answered && !gaveUp),
    result,
    intent: gaveUp ? Intent.WARNING : answered && found > 0 ? Intent.SUCCESS : Intent.NONE,
  };
}
