import { Button, Callout, Card, H2, HTMLTable, Icon, Intent, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import {
  capitalised,
  ratePercent,
  compactPounds,
  MARKET_MIN_DEALS,
  MARKET_MIN_FIRMS,
  pounds,
  MARKET_PERIOD_LABELS,
  MARKET_PERIODS,
  MARKET_REGIONS,
  toCsv,
  type MarketPeriod,
  type MarketRegion,
  type MarketView,
} from '@pf/events';
import { useState } from 'react';
import { LineChart } from '../../../components/charts/charts';
import { ChoiceSelect } from '../../../components/choice-select';
import { PageHeader } from '../../../components/page-header';
import { downloadCsv } from '../../../lib/csv';
import { monthLabel, percent } from '../../../lib/format';
import { usePreferences } from '../../../lib/preferences';
import { useMarket } from '../api/market';

type MarketTab = 'rates' | 'prices' | 'lenders';

function Headline({ data }: { data: MarketView }) {
  const h = data.headline;
  const cards: [string, string, string][] = [
    ['avgInterestRate', 'Avg Interest Rate', h.avgInterestRate === null ? '–' : ratePercent(h.avgInterestRate)],
    ['avgPropertyPrice', 'Avg Property Price', h.avgPropertyPrice === null ? '–' : pounds(h.avgPropertyPrice)],
    ['marketVolume', 'Market Volume', h.marketVolume === null ? 'Not enough data' : compactPounds(h.marketVolume)],
    ['mortgageApprovals', 'Mortgage Approvals', h.mortgageApprovals === null ? 'Not enough data' : String(h.mortgageApprovals)],
  ];
  return (
    <div className="pf-grid pf-grid-4">
      {cards.map(([key, title, value]) => (
        <Card key={key} className="pf-stat-card" data-testid={`market-${key}`}>
          <div className="pf-stat-head">
            <span>{title}</span>
          </div>
          <div className="pf-stat-value">{value}</div>
          <div className="pf-stat-trend pf-flat">
            {capitalised(data.region)}, {MARKET_PERIOD_LABELS[data.period].toLowerCase()}
          </div>
        </Card>
      ))}
    </div>
  );
}

function marketCsv(data: MarketView, tab: MarketTab): string {
  const h = data.headline;
  const rows: (string | number | null)[][] = [
    ['Market Intelligence', capitalised(data.region), MARKET_PERIOD_LABELS[data.period]],
    ['Avg Interest Rate %', h.avgInterestRate],
    ['Avg Property Price', h.avgPropertyPrice],
    ['Market Volume', h.marketVolume],
    ['Mortgage Approvals', h.mortgageApprovals],
    [],
  ];
  if (tab === 'rates') {
    rows.push(['Month', 'Average offered rate %', 'Average agreed rate %', 'Offers', 'Deals']);
    data.rates.forEach((r) => rows.push([r.month, r.offeredRate, r.agreedRate, r.offers, r.deals]));
  } else if (tab === 'prices') {
    rows.push(['Region', 'Average price', 'Change %', 'Transactions']);
    data.regions.forEach((r) => rows.push([capitalised(r.region), r.avgPrice, r.change, r.count]));
  } else {
    rows.push(['Lender', 'Market share %', 'Average rate %', 'Criteria', 'Deals']);
    data.lenders.forEach((l) => rows.push([l.name, l.marketShare, l.avgRate, l.criteria, l.deals]));
  }
  rows.push([], ['Insight', 'Type', 'Impact', 'Content']);
  data.insights.forEach((i) => rows.push([i.title, i.type, i.impact, i.content]));
  return toCsv(rows);
}

function busiestRegion(data: MarketView | undefined): MarketRegion | undefined {
  if (!data) return undefined;
  const best = data.regions.reduce<MarketView['regions'][number] | null>((top, r) => ((r.count ?? 0) > (top?.count ?? 0) ? r : top), null);
  return best?.region ?? data.region;
}

/** Market Intelligence, from the platform's own offers and agreed deals. */
export function MarketPage() {
  const [chosen, setRegion] = useState<MarketRegion | null>(null);
  const [period, setPeriod] = useState<MarketPeriod>('last12');
  const [tab, setTab] = useState<MarketTab>('rates');
  // Until a region is chosen the screen opens on the one with the most transactions (London when none has any).
  const first = useMarket(chosen ?? MARKET_REGIONS[0], period);
  const region = chosen ?? busiestRegion(first.data) ?? MARKET_REGIONS[0];
  const market = useMarket(region, period);
  const data = market.data;
  const preferences = usePreferences();
  const showInsights = preferences.data?.notifications.marketInsights ?? preferences.isError;
  return (
    <>
      <PageHeader title="Market Intelligence" subtitle="From the offers and deals agreed on this platform">
        <ChoiceSelect label="Region" choices={MARKET_REGIONS} value={region} labelOf={capitalised} onChange={setRegion} />
        <ChoiceSelect
          label="Period"
          choices={MARKET_PERIODS}
          value={period}
          labelOf={(p) => MARKET_PERIOD_LABELS[p]}
          onChange={setPeriod}
        />
        <Button
          icon="download"
          text="Export Report"
          disabled={!data}
          onClick={() =>
            data && downloadCsv(`market-${data.region}-${data.period}.csv`, marketCsv(showInsights ? data : { ...data, insights: [] }, tab))
          }
        />
      </PageHeader>
      {market.isError ? (
        <Problem icon="error" title="Could not load the market figures" description={market.error.message} />
      ) : !data ? (
        <Spinner />
      ) : (
        <>
          {!data.enoughData ? (
            <Callout intent={Intent.WARNING} className="pf-section" data-testid="market-too-little">
              <h2 className="bp6-heading pf-callout-title">Not enough data</h2>
              Market figures combine firms only where at least {MARKET_MIN_DEALS} deals from at least {MARKET_MIN_FIRMS} different firms
              back them; fewer were agreed in {capitalised(data.region)} in the {MARKET_PERIOD_LABELS[data.period].toLowerCase()}, so no
              firm's clients can be read from them. A deal's region is the region its borrower agent names in its criteria.
            </Callout>
          ) : null}
          <Headline data={data} />
          <Card className="pf-section">
            <H2 className="pf-h4">Market Insights</H2>
            {/* Settings → Preferences: market insights off hides them here (and from the export). */}
            {!showInsights ? (
              <p className="pf-muted" data-testid="market-insights-off">
                Market insights are switched off in Settings → Preferences.
              </p>
            ) : data.insights.length === 0 ? (
              <p className="pf-muted">No movement in the data large enough to report.</p>
            ) : (
              <ul className="pf-list" data-testid="market-insights">
                {data.insights.map((insight) => (
                  <li key={insight.title}>
                    <Icon
                      icon={insight.type === 'positive' ? 'trending-up' : insight.type === 'negative' ? 'trending-down' : 'info-sign'}
                      intent={insight.type === 'positive' ? Intent.SUCCESS : insight.type === 'negative' ? Intent.DANGER : Intent.NONE}
                    />{' '}
                    <strong>{insight.title}</strong> <Tag minimal>{insight.impact}</Tag>
                    <div>{insight.content}</div>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Tabs
            id="market-tabs"
            selectedTabId={tab}
            onChange={(id) => setTab(id as MarketTab)}
            className="pf-section pf-tabs"
            renderActiveTabPanelOnly
          >
            <Tab
              id="rates"
              title="Interest Rates"
              panel={
                data.rates.some((r) => r.offers + r.deals > 0) ? (
                  <Card>
                    <LineChart
                      title={`Interest rates in ${capitalised(data.region)}`}
                      description="Average rate offered and agreed per month, in percent."
                      series={[
                        { key: 'Offered', points: data.rates.map((r) => ({ x: monthLabel(r.month), y: r.offeredRate })) },
                        { key: 'Agreed', points: data.rates.map((r) => ({ x: monthLabel(r.month), y: r.agreedRate })) },
                      ]}
                      format={ratePercent}
                    />
                  </Card>
                ) : (
                  <NonIdealState icon="timeline-line-chart" description={`No offers made in ${capitalised(data.region)} in this period.`} />
                )
              }
            />
            <Tab
              id="prices"
              title="Property Prices"
              panel={
                <Card className="pf-table-wrap">
                  <HTMLTable compact striped className="pf-full" data-testid="market-regions">
                    <thead>
                      <tr>
                        <th>Region</th>
                        <th>Average price</th>
                        <th>Change</th>
                        <th>Transactions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.regions.map((r) => (
                        <tr key={r.region}>
                          <td>{capitalised(r.region)}</td>
                          <td>{r.avgPrice === null ? '–' : pounds(r.avgPrice)}</td>
                          <td>{r.change === null ? '–' : `${r.change > 0 ? '+' : ''}${percent(r.change)}`}</td>
                          <td>{r.count === null ? 'Not enough data' : r.count}</td>
                        </tr>
                      ))}
                    </tbody>
                  </HTMLTable>
                </Card>
              }
            />
            <Tab
              id="lenders"
              title="Lender Analysis"
              panel={
                data.lenders.length === 0 ? (
                  <NonIdealState
                    icon="bank-account"
                    description={`No lender agreed a deal in ${capitalised(data.region)} in this period.`}
                  />
                ) : (
                  <Card className="pf-table-wrap">
                    <HTMLTable compact striped className="pf-full" data-testid="market-lenders">
                      <thead>
                        <tr>
                          <th>Lender</th>
                          <th>Market share</th>
                          <th>Average rate</th>
                          <th>Criteria</th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.lenders.map((l) => (
                          <tr key={l.agentId}>
                            <td>{l.name}</td>
                            <td>{percent(l.marketShare)}</td>
                            <td>{ratePercent(l.avgRate)}</td>
                            <td>
                              <Tag minimal>{l.criteria}</Tag>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </HTMLTable>
                  </Card>
                )
              }
            />
          </Tabs>
        </>
      )}
    </>
  );
}
