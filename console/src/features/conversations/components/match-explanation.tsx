import { Card, H2, Intent, Tag } from '@blueprintjs/core';
import type { ConversationView, CriterionVerdict } from '@pf/events';

const LOOK: Record<CriterionVerdict, { intent: Intent; label: string }> = {
  pass: { intent: Intent.SUCCESS, label: 'Pass' },
  warn: { intent: Intent.WARNING, label: 'Warning' },
  fail: { intent: Intent.DANGER, label: 'Fail' },
};

/** Why the matcher paired these agents, per criterion, as broker sourcing tools show it per lender (docs/behaviour/matching.md). */
export function MatchExplanation({ match }: { match: NonNullable<ConversationView['match']> }) {
  return (
    <Card className="pf-match-explanation" data-testid="match-explanation">
      <H2 className="pf-h5">Why they were matched · score {Math.round(match.score)}</H2>
      <ul className="pf-criteria-verdicts">
        {match.explanation.map((part) => (
          <li key={part.criterion}>
            <Tag minimal intent={LOOK[part.verdict].intent}>
              {LOOK[part.verdict].label}
            </Tag>{' '}
            <strong>{part.criterion}</strong>: {part.detail}
          </li>
        ))}
      </ul>
    </Card>
  );
}
