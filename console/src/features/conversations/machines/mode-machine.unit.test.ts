import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { modeMachine, showsManual, type SwitchAnswer, type SwitchRequest } from './mode-machine';

function deferred() {
  let resolve!: (answer: SwitchAnswer) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<SwitchAnswer>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function start(isManualMode: boolean) {
  const calls: SwitchRequest[] = [];
  const pending: ReturnType<typeof deferred>[] = [];
  const notices: string[] = [];
  const machine = modeMachine.provide({
    actors: {
      setMode: fromPromise(async ({ input }: { input: SwitchRequest }) => {
        calls.push(input);
        const d = deferred();
        pending.push(d);
        return d.promise;
      }),
    },
    actions: {
      notifyFailure: () => void notices.push('failure'),
      notifySuccess: (_, params) => void notices.push(params.words),
      notifyOtherwise: (_, params) => void notices.push(`otherwise: ${params.words}`),
    },
  });
  const actor = createActor(machine, { input: { conversationId: 7, isManualMode } }).start();
  return { actor, calls, pending, notices };
}

describe('mode machine', () => {
  it('starts in the mode of the loaded conversation', () => {
    expect(start(false).actor.getSnapshot().value).toBe('automatic');
    expect(start(true).actor.getSnapshot().value).toBe('manual');
  });

  it('flips at once, sends the command, and lands in manual when it succeeds', async () => {
    const { actor, calls, pending, notices } = start(false);
    actor.send({ type: 'TOGGLE', agentIds: [3] });
    expect(actor.getSnapshot().value).toBe('switchingToManual');
    expect(showsManual(actor.getSnapshot())).toBe(true);
    expect(calls).toEqual([{ conversationId: 7, isManualMode: true, agentIds: [3] }]);
    pending[0]!.resolve({ holdsHere: true, asAsked: true, words: 'Switched to manual mode' });
    await waitFor(actor, (s) => s.matches('manual'));
    expect(notices).toEqual(['Switched to manual mode']);
    expect(actor.getSnapshot().context.confirmedManual).toBe(true);
  });

  it('rolls back and reports the failure when the command fails', async () => {
    const { actor, pending, notices } = start(true);
    actor.send({ type: 'TOGGLE', agentIds: [3] });
    expect(actor.getSnapshot().value).toBe('switchingToAutomatic');
    expect(showsManual(actor.getSnapshot())).toBe(false);
    pending[0]!.reject(new Error('500: boom'));
    await waitFor(actor, (s) => !s.matches('switchingToAutomatic'));
    expect(actor.getSnapshot().value).toBe('manual');
    expect(notices).toEqual(['failure']);
  });

  it('follows another operator’s change pushed to it', () => {
    const { actor, calls } = start(false);
    actor.send({ type: 'SYNC', isManualMode: true });
    expect(actor.getSnapshot().value).toBe('manual');
    actor.send({ type: 'SYNC', isManualMode: true });
    expect(actor.getSnapshot().value).toBe('manual');
    actor.send({ type: 'SYNC', isManualMode: false });
    expect(actor.getSnapshot().value).toBe('automatic');
    expect(calls).toEqual([]);
  });

  it('rolls back to the server’s latest view, not the stale one, when a command fails after a push', async () => {
    const { actor, pending } = start(false);
    actor.send({ type: 'TOGGLE', agentIds: [3] });
    // Another operator switched it to manual while our command was in flight; ours then fails.
    actor.send({ type: 'SYNC', isManualMode: true });
    expect(actor.getSnapshot().value).toBe('switchingToManual');
    pending[0]!.reject(new Error('409: conflict'));
    await waitFor(actor, (s) => !s.matches('switchingToManual'));
    expect(actor.getSnapshot().value).toBe('manual');
  });

  it('ignores a second toggle while the first is in flight', () => {
    const { actor, calls } = start(false);
    actor.send({ type: 'TOGGLE', agentIds: [3] });
    actor.send({ type: 'TOGGLE', agentIds: [3] });
    expect(calls).toHaveLength(1);
    expect(actor.getSnapshot().value).toBe('switchingToManual');
  });

  it('lands where the server says and never toasts a success it did not get', async () => {
    // Handing back while the server says a colleague still holds the side: it answers, but not as asked.
    const { actor, pending, notices } = start(true);
    actor.send({ type: 'TOGGLE', agentIds: [3] });
    pending[0]!.resolve({ holdsHere: true, asAsked: false, words: 'The borrower side (Harriet Cole) is still manual by Ben Brooks' });
    await waitFor(actor, (s) => !s.matches('switchingToAutomatic'));
    expect(actor.getSnapshot().value).toBe('manual');
    expect(notices).toEqual(['otherwise: The borrower side (Harriet Cole) is still manual by Ben Brooks']);
  });
});
