/**
 * A deal agreed on a product, as the whole single node serves it (docs/behaviour/deals.md, docs/behaviour/analytics.md):
 * real PostgreSQL and HTTP; the agreement recorded in the store as the negotiator records one, then the deal opener,
 * the projector and the analytics consumer follow it as they follow any. The deal carries the agreed product, its
 * regulated figures and the broker's procuration fee; the ESIS is made from the product; the broker firm's Analytics
 * shows the fee due while the deal is in progress and earned once it completes.
 */
import { describe, expect, it } from 'vitest';
import { illustrationInputOf } from '@pf/command-service';
import { offerFigures, streams, type AnalyticsReportView, type CurrentUserView, type DealDetailView, type DealView } from '@pf/events';
import { createPool, PostgresEventStore, readingTheContract } from '@pf/infra';
import { ApiClient } from './testing/api-client';
import { FURNESS_FIVE_YEAR_FIX, FURNESS_PROCURATION_FEE, FURNESS_TERMS, recordIntroducedDeal } from './testing/introduced-deal';
import { testSingleNode } from './testing/single-node';

describe('a deal agreed on a product', () => {
  const node = testSingleNode({ AUTOMATION: 'off' });

  it('serves its product, figures and procuration fee, illustrates the product, and is the broker’s commission due, then earned', async () => {
    const broker = await ApiClient.signIn(node.server.url);
    const me = (await broker.get<CurrentUserView>('/api/auth/user')).body;
    const pool = createPool(node.server.databaseUrl, 2);
    try {
      const store = readingTheContract(new PostgresEventStore(pool, node.server.databaseUrl));
      const agreed = await recordIntroducedDeal(store, { userId: me.id, firmId: me.firmId ?? me.id }, 910_000);

      const deal = async () => (await broker.get<DealView[]>('/api/deals')).body.find((d) => d.id === agreed.dealId);
      await expect.poll(deal, { timeout: 20_000, interval: 100 }).toBeDefined();
      const served = (await deal())!;
      expect(served).toMatchObject({
        conversationId: agreed.conversationId,
        brokerName: 'Harbour Mortgages',
        product: FURNESS_FIVE_YEAR_FIX,
        procurationFee: FURNESS_PROCURATION_FEE,
      });
      // Furness Building Society's published payments (docs/behaviour/regulated-figures.md), and every figure the one
      // module of offers gives for these terms.
      expect(served.figures!.payments).toEqual([
        { months: 60, amount: 886.73 },
        { months: 216, amount: 1170.05 },
      ]);
      expect(served.figures).toEqual(offerFigures(FURNESS_TERMS, FURNESS_FIVE_YEAR_FIX));
      const detail = (await broker.get<DealDetailView>(`/api/deals/${agreed.dealId}`)).body;
      expect(detail).toMatchObject({ product: FURNESS_FIVE_YEAR_FIX, figures: served.figures, procurationFee: FURNESS_PROCURATION_FEE });
      expect(detail.timeline[0]!.text).toBe(
        `Opened from terms agreed in conversation #${agreed.conversationId}: 5 Year Fixed Rate, £150,000 at 4.59% over 23 years`,
      );

      // The deal opener carried the product and the fee on to the deal; the ESIS is illustrated from that product.
      const opened = (await store.readStream(streams.deal(agreed.dealId))).find((e) => e.type === 'DealOpened')!.data;
      expect(opened).toMatchObject({ product: FURNESS_FIVE_YEAR_FIX, procurationFee: FURNESS_PROCURATION_FEE });
      expect(illustrationInputOf(opened)).toEqual({
        loan: 150_000,
        termMonths: 276,
        rates: [{ ratePercent: 4.59, months: 60 }, { ratePercent: 8.39 }],
        feesAddedToLoan: [999],
        initialRateFixed: true,
      });

      const commission = async () => (await broker.get<AnalyticsReportView>('/api/analytics/report?period=last30')).body.commission;
      const month = new Date().toISOString().slice(0, 7);
      // Agreed and in progress: the fee is due (lenders pay it on completion), in the month it was agreed.
      await expect.poll(async () => (await commission()).due, { timeout: 20_000, interval: 100 }).toBe(FURNESS_PROCURATION_FEE);
      expect((await commission()).earned).toBe(0);
      expect((await commission()).months.at(-1)).toEqual({ month, earned: 0, completedDeals: 0, due: 525, dealsInProgress: 1 });

      for (const stage of ['valuation', 'underwriting', 'completed'])
        expect((await broker.patch(`/api/deals/${agreed.dealId}`, { stage })).status).toBe(200);
      await expect.poll(async () => (await commission()).earned, { timeout: 20_000, interval: 100 }).toBe(FURNESS_PROCURATION_FEE);
      expect(await commission()).toMatchObject({ due: 0, earned: 525 });
      expect((await commission()).months.at(-1)).toEqual({ month, earned: 525, completedDeals: 1, due: 0, dealsInProgress: 0 });

      // Another firm sees neither the deal nor the commission.
      const stranger = await ApiClient.signIn(node.server.url);
      expect((await stranger.get<DealView[]>('/api/deals')).body).toEqual([]);
      expect((await stranger.get<AnalyticsReportView>('/api/analytics/report?period=last30')).body.commission).toMatchObject({
        earned: 0,
        due: 0,
      });
    } finally {
      await pool.end();
    }
  });
});
