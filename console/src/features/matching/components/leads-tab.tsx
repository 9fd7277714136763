import { Button, Callout, Card, Dialog, DialogBody, H2, Intent, Tag } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { capitalised, CRITERIA_KEYS, requirementWords, type LeadView } from '@pf/events';
import { useState } from 'react';
import { AGENT_TYPE_FILTER } from '../../../components/agent-type';
import { shortDate } from '../../../components/figure-cards';
import { PagedList } from '../../../components/paged-list';
import { SearchFilterBar } from '../../../components/search-filter-bar';
import { useNow } from '../../../lib/use-now';
import { useSearchedPages } from '../../../lib/use-cursor-pages';
import { fetchLeadPage, leadPageKey } from '../api/matching';
import { ScoreTag } from './score-tag';
import { WritersOnly } from '../../../components/writers-only';
import { SourcingTable } from './sourcing-table';
import { DemoBadge, DemoSandboxNotice } from '../../../components/demo-badge';
import { matchRunText, useMatchAction } from './use-match-action';

const URGENCY_INTENT = { high: Intent.DANGER, medium: Intent.WARNING, low: Intent.NONE } as const;

function LeadCard({ lead, onView }: { lead: LeadView; onView: () => void }) {
  const match = useMatchAction(lead);
  const now = useNow();
  // This card's own answer, once it has one, says more than the lead's last run.
  const run = match.result ?? matchRunText(lead, now);
  return (
    <Card className="pf-lead-card" data-testid="lead-card">
      <H2 className="pf-h5 pf-card-title">{lead.name}</H2>
      <div className="pf-tags">
        <Tag minimal>{capitalised(lead.type)}</Tag>
        <DemoBadge isDemo={lead.isDemo} />
        <Tag minimal intent={URGENCY_INTENT[lead.urgency]}>
          {capitalised(lead.urgency)} urgency
        </Tag>
        <Tag minimal data-testid="lead-status">
          {capitalised(lead.status)}
        </Tag>
        {lead.matchScore !== null ? <ScoreTag score={lead.matchScore} /> : null}
      </div>
      <p className="pf-small">{requirementWords(lead.type, lead.criteria)}</p>
      <p className="pf-muted pf-small">
        Created {shortDate(lead.createdDate)} · Last contact {shortDate(lead.lastContact)}
      </p>
      {run ? (
        <Callout compact className="pf-small" intent={match.result ? match.intent : Intent.NONE} data-testid="match-run">
          {run}
        </Callout>
      ) : null}
      <div className="pf-card-actions pf-tags">
        <Button text="View" icon="eye-open" variant="outlined" onClick={onView} />
        <WritersOnly>
          <Button
            text="Match"
            icon="exchange"
            intent={Intent.PRIMARY}
            disabled={lead.status === 'cancelled'}
            loading={match.waiting}
            onClick={match.ask}
          />
        </WritersOnly>
      </div>
    </Card>
  );
}

/**
 * Leads (docs/behaviour/matching.md): the firm's agents that are looking, one page at a time, searched by name
 * or requirements and filtered by type on the server.
 */
export function LeadsTab() {
  const { pages, bar, filtered } = useSearchedPages(leadPageKey, fetchLeadPage);
  // The lead as the list now has it (a Match answered meanwhile brings its sourcing), kept if it leaves the page.
  const [viewed, setViewing] = useState<LeadView | null>(null);
  const viewing = (viewed && pages.query.data?.items.find((lead) => lead.id === viewed.id)) ?? viewed;
  return (
    <>
      <SearchFilterBar
        className="pf-section"
        noun="leads"
        placeholder="Search leads by name or requirements..."
        {...AGENT_TYPE_FILTER}
        {...bar}
      />
      <PagedList
        pages={pages}
        noun="leads"
        filtered={filtered}
        errorTitle="Could not load leads"
        empty={
          <Problem
            icon="people"
            title="Leads are your agents that are looking"
            description="Create a borrower, lender or broker agent (Add Lead), or seed demo data on the dashboard: each one appears here with its need or appetite."
          />
        }
        noMatch={<Problem icon="search" title="No leads match" description="Try another search or type." />}
      >
        {(leads) => (
          <>
            <DemoSandboxNotice shown={leads.some((lead) => lead.isDemo)} />
            <div className="pf-grid pf-grid-3 pf-section">
              {leads.map((lead) => (
                <LeadCard key={lead.id} lead={lead} onView={() => setViewing(lead)} />
              ))}
            </div>
          </>
        )}
      </PagedList>
      <Dialog isOpen={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name} className="pf-wide-dialog">
        <DialogBody>
          {viewing ? (
            <>
              <p>{requirementWords(viewing.type, viewing.criteria)}</p>
              <table className="pf-facts">
                <tbody>
                  {CRITERIA_KEYS.filter((key) => viewing.criteria?.[key]).map((key) => (
                    <tr key={key}>
                      <th>{key}</th>
                      <td>{viewing.criteria![key]}</td>
                    </tr>
                  ))}
                  <tr>
                    <th>Status</th>
                    <td>{viewing.status}</td>
                  </tr>
                  <tr>
                    <th>Matches</th>
                    <td>{viewing.matchCount}</td>
                  </tr>
                  <tr>
                    <th>Best score</th>
                    <td>{viewing.matchScore ?? '–'}</td>
                  </tr>
                </tbody>
              </table>
              {viewing.sourcing ? <SourcingTable sourcing={viewing.sourcing} /> : null}
            </>
          ) : null}
        </DialogBody>
      </Dialog>
    </>
  );
}
