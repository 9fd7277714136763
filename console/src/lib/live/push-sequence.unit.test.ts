import { describe, expect, it } from 'vitest';
import { admitPush, initialSequence, onNewSocket } from './push-sequence';

describe('push sequence', () => {
  it('applies a chain of pushes in order', () => {
    let state = initialSequence;
    const first = admitPush(state, { position: '10:1', previousPosition: null });
    expect(first.verdict).toBe('apply');
    state = first.state;
    const second = admitPush(state, { position: '12:1', previousPosition: '10:1' });
    expect(second.verdict).toBe('apply');
    expect(second.state.lastSeen).toBe('12:1');
  });

  it('drops a push already seen, comparing positions numerically', () => {
    const state = { lastSeen: '100:2', socketPrevious: '100:2' };
    expect(admitPush(state, { position: '100:2', previousPosition: '99:1' }).verdict).toBe('duplicate');
    expect(admitPush(state, { position: '20:9', previousPosition: null }).verdict).toBe('duplicate');
  });

  it('reports a gap when the previous position is not the last one seen', () => {
    const state = { lastSeen: '10:1', socketPrevious: '10:1' };
    const result = admitPush(state, { position: '14:1', previousPosition: '12:1' });
    expect(result.verdict).toBe('gap');
    expect(result.state.lastSeen).toBe('14:1');
  });

  it('accepts the first push of a resumed socket that follows the last one seen', () => {
    const state = onNewSocket({ lastSeen: '10:1', socketPrevious: '10:1' });
    expect(admitPush(state, { position: '11:1', previousPosition: '10:1' }).verdict).toBe('apply');
    expect(admitPush(state, { position: '11:1', previousPosition: null }).verdict).toBe('apply');
  });
});
