import { describe, expect, it } from 'vitest';
import { runNegotiation } from '../negotiation/run-negotiation';
import { negotiationSetup } from '../negotiation/setup';
import { evolveNegotiation, initialNegotiationState } from '../negotiation/state';
import { createRng } from '../rng';
import { formatPounds, formatRate, formatYears } from './format';
import { messageForBroker, messageForMove } from './move-message';
import { composeMessage } from './phrases';

const terms = { interestRate: 4.1, termYears: 25, loanAmount: 187_000, arrangementFee: 1250 };

describe('wording', () => {
  it('formats pounds, rates and years the British way', () => {
    expect(formatPounds(1_250_000)).toBe('£1,250,000');
    expect(formatRate(4.1)).toBe('4.10%');
    expect(formatYears(1)).toBe('1 year');
  });

  it('states the engine’s numbers, varies with the seed and repeats for the same seed', () => {
    const texts = Array.from({ length: 12 }, (_, seed) =>
      composeMessage({ kind: 'counter', side: 'lender', terms, propertyValue: 250_000, iMoved: true }, createRng(seed)),
    );
    for (const text of texts) {
      expect(text).toContain('£187,000');
      expect(text).toContain('4.10%');
      expect(text).toContain('25 years');
      expect(text).toContain('£1,250');
    }
    expect(new Set(texts).size).toBeGreaterThan(1);
    expect(composeMessage({ kind: 'accept', side: 'borrower', terms, propertyValue: 250_000 }, createRng(3))).toBe(
      composeMessage({ kind: 'accept', side: 'borrower', terms, propertyValue: 250_000 }, createRng(3)),
    );
  });

  it('mentions unreadable criteria in an agent’s first message only', () => {
    const setup = negotiationSetup(
      { agentId: 1, criteria: { interestRateMax: 'cheap', loanTermMax: 'long' } },
      { agentId: 2, criteria: null },
    );
    const state = initialNegotiationState(5, setup);
    const move = { kind: 'offer' as const, round: 0, terms };
    const first = messageForMove(state, 'borrower', move, createRng(1));
    expect(first).toContain("I couldn't read my maximum interest rate and maximum loan term, so I'm treating them as no limit.");
    const spoken = evolveNegotiation(state, {
      type: 'MessageSent',
      data: { conversationId: 5, messageId: 1, fromAgentId: 1, toAgentId: 2, content: first ?? '', isAutomated: true },
    });
    expect(messageForMove(spoken, 'borrower', move, createRng(1))).not.toContain("couldn't read");
    expect(messageForMove(state, 'borrower', { kind: 'wait', reason: 'not-your-turn' }, createRng(1))).toBeNull();
  });

  it('gives the broker an introduction naming both parties', () => {
    const state = initialNegotiationState(5, negotiationSetup({ agentId: 1, criteria: null }, { agentId: 2, criteria: null }, 3));
    const text = messageForBroker(state, { kind: 'introduce' }, { borrower: 'Alice', lender: 'Northern Bank' }, createRng(1));
    expect(text).toMatch(/Alice/);
    expect(text).toMatch(/Northern Bank/);
    expect(text).toContain('£250,000');
  });

  it('words a whole negotiation with every offer’s figures', () => {
    const result = runNegotiation({ agentId: 1, criteria: { interestRateMax: '5%' } }, { agentId: 2, criteria: { interestRateMin: '4%' } });
    for (const event of result.events) {
      if (event.type !== 'OfferMade') continue;
      const text = composeMessage(
        { kind: 'counter', side: 'borrower', terms: event.data.terms, propertyValue: 250_000 },
        createRng(event.data.round),
      );
      expect(text).toContain(formatRate(event.data.terms.interestRate));
    }
  });
});

describe('words true to the move', () => {
  it('says "closer" only when the other side moved closer, and that it moved only when it did', () => {
    const terms = { interestRate: 4.5, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
    for (let seed = 1; seed <= 60; seed += 1) {
      const still = composeMessage(
        { kind: 'counter', side: 'borrower', terms, propertyValue: 350_000, theyMovedCloser: false, iMoved: false },
        createRng(seed),
      );
      expect(still).not.toMatch(/closer/);
      const lender = composeMessage(
        { kind: 'counter', side: 'lender', terms, propertyValue: 350_000, theyMovedCloser: true, iMoved: false },
        createRng(seed),
      );
      expect(lender).not.toMatch(/move to|looked again/);
    }
    const said = new Set(
      Array.from({ length: 60 }, (_, seed) =>
        composeMessage(
          { kind: 'counter', side: 'borrower', terms, propertyValue: 350_000, theyMovedCloser: true, iMoved: true },
          createRng(seed + 1),
        ),
      ),
    );
    expect([...said].some((text) => text.startsWith("That's closer"))).toBe(true);
  });
});
