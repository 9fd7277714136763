import { Button, Intent, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { FigureCards } from '../../../components/figure-cards';
import { PageHeader } from '../../../components/page-header';
import { AgentFormDialog } from '../../agents/components/agent-form-dialog';
import { useMatchingStats } from '../api/matching';
import { LeadsTab } from './leads-tab';
import { MatchesTab } from './matches-tab';

/** Matching & Leads (spec §2): Leads (default) and Active Matches, with four figures from the read models. */
export function MatchingPage() {
  const stats = useMatchingStats();
  const [tab, setTab] = useState<'leads' | 'matches'>('leads');
  const [adding, setAdding] = useState(false);
  const s = stats.data;
  return (
    <>
      <PageHeader title="Matching & Leads" subtitle="Who is looking, who fits, and why">
        {/* A lead is an agent that is looking: Add Lead creates one. */}
        <Button intent={Intent.PRIMARY} icon="plus" text="Add Lead" onClick={() => setAdding(true)} />
      </PageHeader>
      <FigureCards
        figures={
          s && [
            { key: 'activeLeads', title: 'Active Leads', icon: 'people', value: String(s.activeLeads) },
            { key: 'successfulMatches', title: 'Successful Matches', icon: 'exchange', value: String(s.successfulMatches), hint: 'Terms agreed' },
            { key: 'successRate', title: 'Success Rate', icon: 'trending-up', value: s.successRate === null ? null : `${s.successRate}%` },
            { key: 'averageMatchScore', title: 'Avg Match Score', icon: 'predictive-analysis', value: s.averageMatchScore === null ? null : `${s.averageMatchScore}%` },
          ]
        }
      />
      <Tabs id="matching-tabs" className="pf-section" selectedTabId={tab} onChange={(id) => setTab(id as 'leads' | 'matches')}>
        <Tab id="leads" title="Leads" panel={<LeadsTab />} />
        <Tab id="matches" title="Active Matches" panel={<MatchesTab />} />
      </Tabs>
      <AgentFormDialog isOpen={adding} onClose={() => setAdding(false)} />
    </>
  );
}
