import { describe, expect, it } from 'vitest';
import type { EsisDocument } from './esis-content';
import { renderEsisPdf } from './esis-pdf';

const document: Pick<EsisDocument, 'title' | 'sections'> = {
  title: 'European Standardised Information Sheet (ESIS): mortgage illustration',
  sections: [{ title: '1. Lender', lines: ['Furness Building Society'] }],
};

describe('renderEsisPdf', () => {
  it('gives the same bytes for the same content and time, so a retry stores the same file under the same checksum', async () => {
    const at = new Date('2026-11-28T10:00:00Z');
    const first = await renderEsisPdf(document, at, 'Furness Building Society');
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await renderEsisPdf(document, at, 'Furness Building Society')).equals(first)).toBe(true);
    expect((await renderEsisPdf(document, new Date('2026-11-29T10:00:00Z'), 'Furness Building Society')).equals(first)).toBe(false);
  });
});
