/**
 * Every agreed deal has its illustration (docs/behaviour/regulated-figures.md, "The illustration of an agreed
 * deal"), on the whole single node: real PostgreSQL, HTTP and the automated agents. Two firms' agents agree a
 * deal; each firm finds the ESIS PDF on Documents, made by the platform; it downloads through a signed link with
 * the checksum its event records, its stream's hash chain is intact, and the text read back from the PDF (pdf.js)
 * carries the figures `illustrate` gives for the deal's terms.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { illustrationInputOf } from '@pf/command-service';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import { illustrate, poundsAndPence, streams, type DealView, type DocumentLink, type DocumentView } from '@pf/events';
import { createPool, PostgresEventStore, readingTheContract, verifyStreams } from '@pf/infra';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';

const fontsDir = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The PDF's text as a reader's copy and paste would give it: its lines, in order, across its pages. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes, standardFontDataUrl: fontsDir }).promise;
  let text = '';
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const content = await (await pdf.getPage(page)).getTextContent();
    for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
  }
  await pdf.destroy();
  return text;
}

describe('the illustration of an agreed deal', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });

  it('is made when two firms’ agents agree, listed for both, downloadable, in the hash chain, with illustrate’s figures', async () => {
    const url = node.server.url;
    const borrowerFirm = await ApiClient.signIn(url);
    const lenderFirm = await ApiClient.signIn(url);
    expect((await borrowerFirm.post('/api/agents', HARRIET_COLE)).status).toBe(201);
    expect((await lenderFirm.post('/api/agents', WESSEX_BUILDING_SOCIETY)).status).toBe(201);

    const deals = async () => (await borrowerFirm.get<DealView[]>('/api/deals')).body;
    await expect.poll(async () => (await deals()).length, { timeout: 60_000, interval: 250 }).toBe(1);
    const [deal] = await deals();

    const illustrationOf = async (client: ApiClient) =>
      (await client.get<DocumentView[]>('/api/documents')).body.find(
        (d) => d.dealId === deal!.id && d.name.startsWith('Mortgage illustration'),
      );
    await expect.poll(async () => (await illustrationOf(borrowerFirm)) !== undefined, { timeout: 20_000, interval: 250 }).toBe(true);
    await expect.poll(async () => (await illustrationOf(lenderFirm)) !== undefined, { timeout: 20_000, interval: 250 }).toBe(true);
    const listed = (await illustrationOf(lenderFirm))!;
    expect(listed).toMatchObject({
      name: 'Mortgage illustration (ESIS): Wessex Building Society to Harriet Cole.pdf',
      type: 'application',
      contentType: 'application/pdf',
      uploadedBy: 'Made by the platform',
      status: 'pending',
    });
    expect(await illustrationOf(borrowerFirm)).toMatchObject({ id: listed.id, sha256: listed.sha256 });
    // Someone outside both firms does not see it.
    const stranger = await ApiClient.signIn(url);
    expect((await stranger.get<DocumentView[]>('/api/documents')).body).toEqual([]);

    const link = await borrowerFirm.post<DocumentLink>(`/api/documents/${listed.id}/downloads`);
    expect(link.status).toBe(201);
    const response = await fetch(new URL(link.body.url, url));
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(listed.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(listed.sha256);

    const pool = createPool(node.server.databaseUrl, 2);
    try {
      const store = new PostgresEventStore(pool, node.server.databaseUrl);
      const [verification] = await verifyStreams(store, [streams.document(listed.id)]);
      expect(verification).toMatchObject({ intact: true, events: 2, firstBroken: null }); // uploaded, downloaded
      const opened = (await readingTheContract(store).readStream(streams.deal(deal!.id))).find((e) => e.type === 'DealOpened')!.data;

      // The input is the deal's terms as the Deals screen shows them, with the agreed product's initial period and then
      // its reversion rate (docs/behaviour/offers.md).
      const input = illustrationInputOf(opened);
      const product = opened.product!;
      expect(product).toBeDefined();
      expect(input).toMatchObject({
        loan: deal!.loanAmount,
        termMonths: deal!.term * 12,
        rates: [{ ratePercent: deal!.interestRate, months: product.initialPeriodMonths }, { ratePercent: product.reversionRatePercent }],
      });
      const figures = illustrate(input);
      const text = await pdfText(bytes);
      expect(text).toContain('1. Lender\nWessex Building Society');
      expect(text).toContain(`This document was produced for Harriet Cole`);
      for (const period of figures.payments)
        expect(text).toContain(`${period.months} monthly payments of ${poundsAndPence(period.amount)}`);
      expect(text).toContain(`Total amount to be repaid: ${poundsAndPence(figures.totalAmountPayable)}`);
      expect(text).toContain(`The APRC is: ${figures.aprc.toFixed(1)}%`);
      expect(text).toContain(`Total cost of credit: ${poundsAndPence(figures.totalCostOfCredit)}`);
      expect(text).toContain(`Duration of the loan: ${deal!.term} years`);
    } finally {
      await pool.end();
    }
  });
});
