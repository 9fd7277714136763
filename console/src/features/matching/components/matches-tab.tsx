import { Button, Card, Dialog, DialogBody, H2, Tag } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { capitalised, PAGE_LIMIT_DEFAULT, pounds, type MatchView } from '@pf/events';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { shortDate } from '../../../components/figure-cards';
import { PagedList } from '../../../components/paged-list';
import { useCursorPages } from '../../../lib/use-cursor-pages';
import { fetchMatchPage, matchPageKey } from '../api/matching';
import { ScoreTag, VerdictTag } from './score-tag';

function Explanation({ match }: { match: MatchView }) {
  return (
    <ul className="pf-list" data-testid="match-explanation">
      {match.explanation.map((criterion) => (
        <li key={criterion.criterion} className="pf-list-row">
          <VerdictTag verdict={criterion.verdict} />
          <span className="pf-grow">
            <strong>{criterion.criterion}</strong>: {criterion.detail}
          </span>
        </li>
      ))}
    </ul>
  );
}

const MATCH_PAGE = { limit: PAGE_LIMIT_DEFAULT };

/**
 * Active Matches (docs/behaviour/matching.md): the matcher's matches, each following its conversation and deal,
 * with its reasons; one page at a time from the server.
 */
export function MatchesTab() {
  const pages = useCursorPages(matchPageKey, MATCH_PAGE, fetchMatchPage);
  const [, navigate] = useLocation();
  const [viewing, setViewing] = useState<MatchView | null>(null);
  return (
    <>
      <PagedList
        pages={pages}
        noun="matches"
        filtered={false}
        errorTitle="Could not load matches"
        empty={
          <Problem
            className="pf-section"
            icon="exchange"
            title="Matches appear when the matcher pairs your agents"
            description="The matcher scores every borrower and lender on property value, rate and term, and matches pairs at 70 or more. Add leads or press Match on one."
          />
        }
        noMatch={null}
      >
        {(matches) => (
          <div className="pf-grid pf-grid-2 pf-section">
            {matches.map((match) => (
              <Card key={match.id} data-testid="match-row">
                <H2 className="pf-h5 pf-card-title">
                  {match.borrower} ↔ {match.lender}
                </H2>
                <div className="pf-tags">
                  <ScoreTag score={match.matchScore} />
                  <Tag minimal data-testid="match-stage">
                    {capitalised(match.stage)}
                  </Tag>
                  <Tag minimal>{capitalised(match.status)}</Tag>
                </div>
                <p className="pf-muted pf-small">
                  {match.broker ? `Introduced by ${match.broker} · ` : ''}
                  {match.loanAmount !== null ? `${pounds(match.loanAmount)} agreed · ` : ''}Matched {shortDate(match.createdDate)}
                </p>
                <Explanation match={match} />
                <div className="pf-tags pf-section">
                  <Button text="View" icon="eye-open" variant="outlined" onClick={() => setViewing(match)} />
                  <Button
                    text="Track"
                    icon="chat"
                    variant="outlined"
                    disabled={match.conversationId === null}
                    onClick={() => navigate(`/conversations/${match.conversationId}`)}
                  />
                </div>
              </Card>
            ))}
          </div>
        )}
      </PagedList>
      <Dialog
        isOpen={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `${viewing.borrower} ↔ ${viewing.lender}` : ''}
        className="pf-wide-dialog"
      >
        <DialogBody>
          {viewing ? (
            <>
              <div className="pf-tags">
                <ScoreTag score={viewing.matchScore} />
                <Tag minimal>{capitalised(viewing.stage)}</Tag>
                <Tag minimal>{capitalised(viewing.status)}</Tag>
              </div>
              <Explanation match={viewing} />
              {viewing.dealId ? (
                <p className="pf-section">
                  Deal open: see Deals & Transactions. Target completion {shortDate(viewing.estimatedCompletion)}.
                </p>
              ) : null}
            </>
          ) : null}
        </DialogBody>
      </Dialog>
    </>
  );
}
