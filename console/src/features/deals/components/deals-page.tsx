import { Button, Card, H2, Intent } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { WritersOnly } from '../../../components/writers-only';
import { ltvPercent, ratePercent, compactPounds, DEAL_STATUSES, pounds, poundsAndPence, termInWords, type DealView } from '@pf/events';
import { useState } from 'react';
import { FigureCards, shortDate } from '../../../components/figure-cards';
import { aprcText } from '../../../components/terms-figures';
import { PageHeader } from '../../../components/page-header';
import { PagedList } from '../../../components/paged-list';
import { SearchFilterBar } from '../../../components/search-filter-bar';
import { useSearchedPages } from '../../../lib/use-cursor-pages';
import { dealPageKey, fetchDealPage, useDealStats } from '../api/deals';
import { DealDetailDialog } from './deal-detail-dialog';
import { DealEditDialog } from './deal-edit-dialog';
import { DealStageTag, DealStatusTag } from './deal-tags';
import { NewDealDialog } from './new-deal-dialog';

function DealRow({ deal, onView, onEdit }: { deal: DealView; onView: () => void; onEdit: () => void }) {
  return (
    <li className="pf-list-row pf-deal-row" data-testid="deal-row">
      <div className="pf-grow">
        <div className="pf-deal-title">{deal.propertyAddress || 'Address needed: add it with Edit'}</div>
        <div className="pf-muted pf-small">
          {deal.borrowerName} · {deal.lenderName}
          {deal.brokerName ? ` · via ${deal.brokerName}` : ''}
        </div>
        <div className="pf-deal-terms" data-testid="deal-terms">
          {pounds(deal.loanAmount)} at {ratePercent(deal.interestRate)} over {deal.term} years · LTV {ltvPercent(deal.ltv)} · value{' '}
          {pounds(deal.propertyValue)}
        </div>
        {deal.product || deal.figures ? (
          <div className="pf-deal-terms" data-testid="deal-product">
            {[
              deal.product ? `${deal.product.name}, ${termInWords(deal.product.initialPeriodMonths)} initial period` : null,
              deal.figures ? `${poundsAndPence(deal.figures.monthlyPayment)} a month` : null,
              deal.figures ? `APRC ${aprcText(deal.figures)}` : null,
              deal.procurationFee !== null ? `procuration fee ${pounds(deal.procurationFee)}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </div>
        ) : null}
        <div className="pf-tags">
          <DealStatusTag status={deal.status} />
          <DealStageTag stage={deal.stage} />
          <span className="pf-muted pf-small">Created {shortDate(deal.dateCreated)}</span>
        </div>
      </div>
      <div className="pf-row-actions">
        <Button text="View" icon="eye-open" variant="outlined" onClick={onView} />
        <WritersOnly>
          <Button text="Edit" icon="edit" variant="outlined" onClick={onEdit} />
        </WritersOnly>
      </div>
    </li>
  );
}

/**
 * Deals & Transactions (docs/behaviour/deals.md): deals opened by agreed negotiations or New Deal, their stats,
 * one page at a time, searched and filtered by status on the server.
 */
export function DealsPage() {
  const { pages, bar, filtered } = useSearchedPages(dealPageKey, fetchDealPage);
  const stats = useDealStats();
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const [editing, setEditing] = useState<DealView | null>(null);
  const s = stats.data;

  return (
    <>
      <PageHeader title="Deals & Transactions" subtitle="Loans your agents agreed, from application to completion">
        <WritersOnly>
          <Button intent={Intent.PRIMARY} icon="plus" text="New Deal" onClick={() => setCreating(true)} />
        </WritersOnly>
      </PageHeader>
      <FigureCards
        figures={
          s && [
            { key: 'activeDeals', title: 'Active Deals', icon: 'exchange', value: String(s.activeDeals) },
            {
              key: 'totalValue',
              title: 'Total Value',
              icon: 'bank-account',
              value: compactPounds(s.totalValue),
              hint: 'Loans not cancelled',
            },
            {
              key: 'completionRate',
              title: 'Completion Rate',
              icon: 'trending-up',
              value: s.completionRate === null ? null : `${s.completionRate}%`,
              hint: 'Completed of finished',
            },
            {
              key: 'averageDays',
              title: 'Avg. Time to Complete',
              icon: 'time',
              value: s.averageDaysToComplete === null ? null : `${s.averageDaysToComplete} days`,
            },
          ]
        }
      />
      <Card className="pf-section">
        <SearchFilterBar
          noun="deals"
          placeholder="Search deals by property address or borrower name..."
          filterLabel="Status filter"
          allLabel="All Statuses"
          options={DEAL_STATUSES}
          {...bar}
        />
        <H2 className="pf-h4 pf-section">Recent Deals</H2>
        <PagedList
          pages={pages}
          noun="deals"
          filtered={filtered}
          errorTitle="Could not load deals"
          empty={
            <Problem
              icon="exchange"
              title="Deals appear when your agents agree terms"
              description="When two of your agents agree a rate, term, loan and fee, the deal opens here at application. Seed demo data on the dashboard, or add one with New Deal."
            />
          }
          noMatch={<Problem icon="search" title="No deals match" description="Try another search or status." />}
        >
          {(deals) => (
            <ul className="pf-list">
              {deals.map((deal) => (
                <DealRow key={deal.id} deal={deal} onView={() => setViewing(deal.id)} onEdit={() => setEditing(deal)} />
              ))}
            </ul>
          )}
        </PagedList>
      </Card>
      <NewDealDialog isOpen={creating} onClose={() => setCreating(false)} />
      <DealDetailDialog dealId={viewing} onClose={() => setViewing(null)} />
      {editing ? <DealEditDialog deal={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
