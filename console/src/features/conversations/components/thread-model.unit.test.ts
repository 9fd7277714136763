import { describe, expect, it } from 'vitest';
import type { HistoryEvent, MessageView } from '@pf/events';
import { sideOf, threadItems } from './thread-model';
import { FURNESS_FIVE_YEAR_FIX } from '@pf/events/testing';

const terms = { interestRate: 4.5, termYears: 25, loanAmount: 200_000, arrangementFee: 999 };
let n = 0;
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 9, 0, second)).toISOString();
function event(type: string, data: object, second: number, person = false): HistoryEvent {
  n++;
  return {
    id: `e${n}`,
    position: `1:${n}`,
    stream: 'conversation-1',
    streamVersion: n,
    recordedAt: at(second),
    type,
    kind: 'offer',
    actor: person
      ? { kind: 'person', userId: 'u', name: 'Ada Lovelace', sessionId: 's', agentId: 1 }
      : { kind: 'agent', agentId: 2, name: 'Bank' },
    summary: '',
    data,
    redacted: false,
    metadata: null,
    contentDigest: null,
    hash: null,
    previousHash: null,
  };
}
const message = (id: number, fromAgentId: number, second: number, isAutomated = true): MessageView => ({
  id,
  conversationId: 1,
  fromAgentId,
  toAgentId: null,
  fromAgentName: `Agent ${fromAgentId}`,
  fromAgentType: fromAgentId === 2 ? 'lender' : 'borrower',
  content: `message ${id}`,
  isAutomated,
  createdAt: at(second),
});
const offer = (offerId: string, fromAgentId: number, second: number, person = false) =>
  event('OfferMade', { conversationId: 1, offerId, round: 0, fromAgentId, toAgentId: 3 - fromAgentId, terms }, second, person);
const rejected = (offerId: string, second: number) => event('OfferRejected', { conversationId: 1, offerId, byAgentId: 1 }, second);
const accepted = (offerId: string, second: number) => event('OfferAccepted', { conversationId: 1, offerId, byAgentId: 1, terms }, second);
const sent = (messageId: number, second: number, person = false) =>
  event('MessageSent', { conversationId: 1, messageId, fromAgentId: 1, toAgentId: 2, content: 'x', isAutomated: !person }, second, person);

describe('threadItems', () => {
  it('puts borrowers and brokers on the left and lenders on the right', () => {
    expect([sideOf('borrower'), sideOf('broker'), sideOf('lender')]).toEqual(['left', 'left', 'right']);
  });

  it('merges messages and offers in recorded order, an offer after the message of the same instant', () => {
    const items = threadItems([message(1, 2, 1), message(2, 1, 3)], [offer('a', 2, 1), offer('b', 1, 2)]);
    expect(items.map((i) => i.key)).toEqual(['m1', 'oa', 'ob', 'm2']);
  });

  it('marks each offer open, superseded by its side’s next, rejected or accepted, and open ones superseded by an agreement', () => {
    const history = [offer('a', 2, 1), rejected('a', 2), offer('b', 1, 3), offer('c', 1, 4), offer('d', 2, 5)];
    const statuses = (h: HistoryEvent[]) => threadItems([], h).map((i) => (i.kind === 'offer' ? `${i.offerId}:${i.status}` : ''));
    expect(statuses(history)).toEqual(['a:rejected', 'b:superseded', 'c:open', 'd:open']);
    expect(statuses([...history, accepted('d', 6)])).toEqual(['a:rejected', 'b:superseded', 'c:superseded', 'd:accepted']);
  });

  it('names the person who wrote a manual message or made an offer', () => {
    const history = [sent(7, 1, true), offer('a', 1, 2, true)];
    const [said, offered] = threadItems([message(7, 1, 1, false)], history);
    expect(said).toMatchObject({ kind: 'message', person: 'Ada Lovelace' });
    expect(offered).toMatchObject({ kind: 'offer', person: 'Ada Lovelace' });
  });

  it('names the person for the note their Make offer recorded (written as automated), and leaves the automation’s notes unnamed', () => {
    const note = (id: number, second: number): MessageView => ({ ...message(id, 1, second, true), isReading: true });
    const history = [sent(8, 1, true), offer('a', 1, 1, true), sent(9, 2)];
    const [offerNote, offered, readingNote] = threadItems([note(8, 1), note(9, 2)], history);
    expect(offerNote).toMatchObject({ kind: 'message', person: 'Ada Lovelace', isNote: true });
    expect(offered).toMatchObject({ kind: 'offer', person: 'Ada Lovelace' });
    expect(readingNote).toMatchObject({ kind: 'message', person: null, isNote: true });
  });

  it('shows an offer’s product and the figures the read side served with it, computing none; erased remains are no offer', () => {
    const product = FURNESS_FIVE_YEAR_FIX;
    // As served (docs/behaviour/offers.md); the thread passes them on as they are.
    const figures = {
      payments: [{ months: 60, amount: 886.73 }],
      monthlyPayment: 886.73,
      totalAmountPayable: 1,
      totalCostOfCredit: 2,
      aprc: 3,
      trueCostOverInitialPeriod: 4,
    };
    const made = { ...offer('p', 2, 1), data: { ...(offer('p', 2, 1).data as object), product }, figures };
    const erased = { ...offer('q', 1, 2), data: { offerId: 'q' } };
    const offers = threadItems([], [made, erased]).filter((i) => i.kind === 'offer');
    expect(offers).toEqual([expect.objectContaining({ offerId: 'p', product, figures, status: 'open' })]);
  });
});
