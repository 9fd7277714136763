import { describe, expect, it } from 'vitest';
import { admitPush, initialSequence, onNewSocket, type SequenceState } from './push-sequence';

const at = (lastSeen: string, keysAtLast: string[] = ['x']): SequenceState => ({
  lastSeen,
  keysAtLast,
  socketPrevious: lastSeen,
});

describe('push sequence', () => {
  it('applies a chain of pushes in order', () => {
    const first = admitPush(initialSequence, { position: '10:1', previousPosition: null, key: 'a' });
    expect(first.verdict).toBe('apply');
    const second = admitPush(first.state, { position: '12:1', previousPosition: '10:1', key: 'b' });
    expect(second.verdict).toBe('apply');
    expect(second.state.lastSeen).toBe('12:1');
  });

  it('drops a push already seen, comparing positions numerically', () => {
    const state = at('100:2', ['message_created:9']);
    expect(admitPush(state, { position: '100:2', previousPosition: '99:1', key: 'message_created:9' }).verdict).toBe('duplicate');
    expect(admitPush(state, { position: '20:9', previousPosition: null, key: 'stats_changed' }).verdict).toBe('duplicate');
  });

  it('applies every different push of one event, which share a position', () => {
    const agent = admitPush(at('770:1'), { position: '771:4', previousPosition: '770:1', key: 'agent_updated:5' });
    expect(agent.verdict).toBe('apply');
    const stats = admitPush(agent.state, { position: '771:4', previousPosition: '771:4', key: 'stats_changed' });
    expect(stats.verdict).toBe('apply');
    const again = admitPush(stats.state, { position: '771:4', previousPosition: '771:4', key: 'stats_changed' });
    expect(again.verdict).toBe('duplicate');
    const next = admitPush(again.state, { position: '774:5', previousPosition: '771:4', key: 'agent_updated:6' });
    expect(next.verdict).toBe('apply');
  });

  it('reports a gap when the previous position is not the last one seen', () => {
    const result = admitPush(at('10:1'), { position: '14:1', previousPosition: '12:1', key: 'a' });
    expect(result.verdict).toBe('gap');
    expect(result.state.lastSeen).toBe('14:1');
  });

  it('accepts the first push of a resumed socket that follows the last one seen', () => {
    const state = onNewSocket(at('10:1'));
    expect(admitPush(state, { position: '11:1', previousPosition: '10:1', key: 'a' }).verdict).toBe('apply');
    expect(admitPush(state, { position: '11:1', previousPosition: null, key: 'a' }).verdict).toBe('apply');
  });
});
