import { Button, Intent, Tab, Tabs } from '@blueprintjs/core';
import { WritersOnly } from '../../../components/writers-only';
import { useState, type ComponentType } from 'react';
import { FigureCards } from '../../../components/figure-cards';
import { DefinedTitle, SuccessRateTitle, successRateText } from '../../../components/success-rate';
import { ACTIVE_LEADS_DEFINITION } from '@pf/events';
import { PageHeader } from '../../../components/page-header';
import { useMatchingStats } from '../api/matching';
import { LeadsTab } from './leads-tab';
import { MatchesTab } from './matches-tab';

/**
 * Matching & Leads (docs/behaviour/matching.md): Leads (default) and Active Matches, with four figures from the
 * read models. Add Lead opens the agents feature's dialog, which the route passes in (features do not import
 * each other).
 */
export function MatchingPage({ AddLeadDialog }: { AddLeadDialog: ComponentType<{ isOpen: boolean; onClose: () => void }> }) {
  const stats = useMatchingStats();
  const [tab, setTab] = useState<'leads' | 'matches'>('leads');
  const [adding, setAdding] = useState(false);
  const s = stats.data;
  return (
    <>
      <PageHeader title="Matching & Leads" subtitle="Who is looking, who fits, and why">
        {/* A lead is an agent that is looking: Add Lead creates one. */}
        <WritersOnly>
          <Button intent={Intent.PRIMARY} icon="plus" text="Add Lead" onClick={() => setAdding(true)} />
        </WritersOnly>
      </PageHeader>
      <FigureCards
        figures={
          s && [
            {
              key: 'activeLeads',
              title: <DefinedTitle title="Active Leads" definition={ACTIVE_LEADS_DEFINITION} testId="active-leads-title" />,
              icon: 'people',
              value: String(s.activeLeads),
            },
            {
              key: 'successfulMatches',
              title: 'Successful Matches',
              icon: 'exchange',
              value: String(s.successfulMatches),
              hint: 'Terms agreed',
            },
            {
              key: 'successRate',
              title: <SuccessRateTitle />,
              icon: 'trending-up',
              value: s.successRate === null ? null : successRateText(s.successRate),
            },
            {
              key: 'averageMatchScore',
              title: 'Avg Match Score',
              icon: 'predictive-analysis',
              value: s.averageMatchScore === null ? null : `${s.averageMatchScore}%`,
            },
          ]
        }
      />
      <Tabs id="matching-tabs" className="pf-section" selectedTabId={tab} onChange={(id) => setTab(id as 'leads' | 'matches')}>
        <Tab id="leads" title="Leads" panel={<LeadsTab />} />
        <Tab id="matches" title="Active Matches" panel={<MatchesTab />} />
      </Tabs>
      <AddLeadDialog isOpen={adding} onClose={() => setAdding(false)} />
    </>
  );
}
