import { describe, expect, it } from 'vitest';
import type { Conversation } from '@pf/events';
import { ProjectorMemory } from './memory';

const conversation = (id: number, title = `Conversation ${id}`): Conversation => ({
  id,
  title,
  status: 'active',
  outcome: null,
  isManualMode: false,
  manualSides: [],
  matchId: null,
  participants: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const at = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });

describe('ProjectorMemory', () => {
  it('knows what a committed batch wrote while the checkpoint is the one it left', () => {
    const memory = new ProjectorMemory();
    memory.begin(at(0));
    memory.stage([conversation(1)]);
    expect(memory.conversation(1)?.title).toBe('Conversation 1');
    memory.committed(at(5));
    memory.begin(at(5));
    expect(memory.conversation(1)?.title).toBe('Conversation 1');
  });

  it('forgets everything when another writer moved the checkpoint, or a batch failed', () => {
    const memory = new ProjectorMemory();
    memory.begin(at(0));
    memory.stage([conversation(1)]);
    memory.committed(at(5));
    memory.begin(at(7));
    expect(memory.conversation(1)).toBeUndefined();

    memory.stage([conversation(2)]);
    memory.committed(at(9));
    memory.begin(at(9));
    memory.stage([conversation(2, 'changed in a batch that failed')]);
    memory.forget();
    memory.begin(at(9));
    expect(memory.conversation(2)).toBeUndefined();
  });

  it('keeps what a batch staged out of what is known until it commits', () => {
    const memory = new ProjectorMemory();
    memory.begin(at(0));
    memory.stage([conversation(1)]);
    memory.committed(at(1));
    memory.begin(at(1));
    memory.stage([conversation(1, 'staged')]);
    memory.begin(at(1)); // the batch was abandoned before its commit: a new one starts
    expect(memory.conversation(1)?.title).toBe('Conversation 1');
  });

  it('keeps at most its capacity, the least recently written leaving first', () => {
    const memory = new ProjectorMemory(2);
    memory.begin(at(0));
    memory.stage([conversation(1), conversation(2), conversation(3)]);
    memory.committed(at(1));
    expect([1, 2, 3].map((id) => memory.conversation(id) !== undefined)).toEqual([false, true, true]);
  });

  it('forgets everything when someone else wrote the checkpoint at the same position (a live rebuild switched tables)', () => {
    const memory = new ProjectorMemory();
    memory.begin(at(0));
    memory.stage([conversation(1)]);
    memory.committed(at(5), '2026-01-01 10:00:00.000001+00');
    memory.begin(at(5), '2026-01-01 10:00:00.000001+00');
    expect(memory.conversation(1)?.title).toBe('Conversation 1');
    memory.begin(at(5), '2026-01-01 10:00:03.5+00');
    expect(memory.conversation(1)).toBeUndefined();
  });
});
