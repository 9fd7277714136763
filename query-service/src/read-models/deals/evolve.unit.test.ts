import { describe, expect, it } from 'vitest';
import { formatBytes, scoreBand } from '@pf/events';
import { dealOpened, SAMPLE_DEAL_ID } from '@pf/events/testing';
import { evolveDealDoc, type DealDoc } from './evolve';

const dealId = SAMPLE_DEAL_ID;
const opened = dealOpened({
  source: 'manual',
  agreedInConversationId: null,
  lender: { agentId: 2, ownerId: 'alice', name: 'Northern Bank', type: 'lender' },
  propertyAddress: '3 Mill Lane, Leeds',
  arrangementFee: 0,
});

describe('a deal row', () => {
  it('opens at application, active, and keeps a timeline of what changed', () => {
    let doc = evolveDealDoc(null, opened, '2025-01-01T10:00:00.000Z') as DealDoc;
    expect(doc).toMatchObject({ status: 'active', stage: 'application', owners: ['alice'], borrowerName: 'Alice', completedAt: null });
    doc = evolveDealDoc(
      doc,
      { type: 'DealStageChanged', data: { dealId, from: 'underwriting', stage: 'completed' } },
      '2025-01-05T10:00:00.000Z',
    )!;
    doc = evolveDealDoc(
      doc,
      { type: 'DealEdited', data: { dealId, propertyAddress: '4 Mill Lane, Leeds', targetCompletion: '2025-02-01' } },
      '2025-01-06T10:00:00.000Z',
    )!;
    expect(doc.completedAt).toBe('2025-01-05T10:00:00.000Z');
    expect(doc.timeline.map((t) => t.text)).toEqual([
      'Opened with New Deal: £240,000 at 4.2% over 25 years',
      'Stage moved from underwriting to completed',
      'Edited: property address set to 4 Mill Lane, Leeds; target completion set to 2025-02-01',
    ]);
  });
});

describe('score bands (docs/behaviour/matching.md) and file sizes', () => {
  it('bands scores: 90 green, 80 blue, 70 yellow, below red', () => {
    expect([95, 90, 89, 80, 79, 70, 69].map(scoreBand)).toEqual(['green', 'green', 'blue', 'blue', 'yellow', 'yellow', 'red']);
    expect([512, 2048, 2.5 * 1024 * 1024, 1.2 * 1024 ** 3].map(formatBytes)).toEqual(['512 bytes', '2 KB', '2.5 MB', '1.2 GB']);
  });
});
