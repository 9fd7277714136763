import { Intent, Tag } from '@blueprintjs/core';
import { capitalised, scoreBand, type CriterionVerdict } from '@pf/events';

/** Colour bands: 90+ green, 80+ blue, 70+ yellow, below red. */
const BAND_INTENT = { green: Intent.SUCCESS, blue: Intent.PRIMARY, yellow: Intent.WARNING, red: Intent.DANGER } as const;

export function ScoreTag({ score }: { score: number }) {
  const band = scoreBand(score);
  return (
    <Tag intent={BAND_INTENT[band]} className={`pf-score pf-score-${band}`} data-testid="match-score" data-band={band}>
      {Math.round(score)}% match
    </Tag>
  );
}

/** The matcher's verdicts per criterion (docs/behaviour/matching.md, "How agents are matched"), as broker sourcing tools show them: pass, pass with a warning, fail. */
const VERDICT_INTENT: Record<CriterionVerdict, Intent> = { pass: Intent.SUCCESS, warn: Intent.WARNING, fail: Intent.DANGER };

export function VerdictTag({ verdict }: { verdict: CriterionVerdict }) {
  return (
    <Tag minimal intent={VERDICT_INTENT[verdict]} data-testid="verdict">
      {capitalised(verdict)}
    </Tag>
  );
}
