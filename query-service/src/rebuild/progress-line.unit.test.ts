import { describe, expect, it } from 'vitest';
import { progressLine } from './progress-line';

const parts = ['deals'];

describe('a rebuild progress line', () => {
  it('says events done of total, the rate and the time left', () => {
    expect(
      progressLine({
        phase: 'building',
        done: 120_000,
        total: 200_000,
        eventsPerSecond: 41_234.4,
        secondsLeft: 1.94,
        parts,
        resumed: false,
      }),
    ).toBe('120,000 of 200,000 events (60%), 41,234 events/s, about 2 s left');
    expect(
      progressLine({
        phase: 'building',
        done: 5_000,
        total: 30_000_000,
        eventsPerSecond: 40_000,
        secondsLeft: 749.875,
        parts,
        resumed: true,
      }),
    ).toBe('Resumed: 5,000 of 30,000,000 events (0%), 40,000 events/s, about 12 min 30 s left');
    expect(progressLine({ phase: 'building', done: 0, total: 0, eventsPerSecond: 0, secondsLeft: null, parts, resumed: false })).toBe(
      '0 of 0 events, 0 events/s',
    );
  });
  it('names the parts when preparing and when done', () => {
    expect(
      progressLine({
        phase: 'preparing',
        done: 0,
        total: 0,
        eventsPerSecond: 0,
        secondsLeft: null,
        parts: ['agents', 'notifications'],
        resumed: false,
      }),
    ).toBe('Preparing the rebuild of agents, notifications');
    expect(
      progressLine({ phase: 'done', done: 200_000, total: 200_000, eventsPerSecond: 45_000, secondsLeft: 0, parts, resumed: false }),
    ).toBe('Rebuilt deals from 200,000 events (45,000 events/s)');
  });
});
