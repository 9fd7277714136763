import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

export interface ModeInput {
  conversationId: number;
  isManualMode: boolean;
}

interface ModeContext {
  conversationId: number;
  /** The mode the server last confirmed (from the loaded conversation, a push, or our own command's answer). */
  confirmedManual: boolean;
}

export type ModeEvent =
  /** The operator flipped the switch. */
  | { type: 'TOGGLE' }
  /** The server's view changed: the loaded conversation, or a push from another operator's switch. */
  | { type: 'SYNC'; isManualMode: boolean };

/**
 * The manual/automatic switch (docs/behaviour/conversations.md): the screen flips at once, the command is sent, and a failure rolls the
 * switch back with the "Failed to toggle manual mode" toast. While a command is in flight a SYNC only records the server's view; the
 * command's own answer decides where the switch lands.
 */
export const modeMachine = setup({
  types: {
    context: {} as ModeContext,
    events: {} as ModeEvent,
    input: {} as ModeInput,
  },
  actors: {
    // Replaced by the screen with the real PATCH; resolving means the server accepted the new mode.
    setMode: fromPromise<void, { conversationId: number; isManualMode: boolean }>(async () => {
      throw new Error('setMode not provided');
    }),
  },
  actions: {
    notifyFailure: () => undefined,
    notifySuccess: (_, _params: { isManualMode: boolean }) => undefined,
    confirm: assign({ confirmedManual: (_, params: { isManualMode: boolean }) => params.isManualMode }),
    recordSync: assign({ confirmedManual: ({ event }) => (event.type === 'SYNC' ? event.isManualMode : false) }),
  },
  guards: {
    startsManual: ({ context }) => context.confirmedManual,
    syncsToManual: ({ event }) => event.type === 'SYNC' && event.isManualMode,
    syncsToAutomatic: ({ event }) => event.type === 'SYNC' && !event.isManualMode,
  },
}).createMachine({
  id: 'mode',
  context: ({ input }) => ({ conversationId: input.conversationId, confirmedManual: input.isManualMode }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'startsManual', target: 'manual' }, { target: 'automatic' }],
    },
    automatic: {
      on: {
        TOGGLE: 'switchingToManual',
        SYNC: { guard: 'syncsToManual', target: 'manual', actions: 'recordSync' },
      },
    },
    manual: {
      on: {
        TOGGLE: 'switchingToAutomatic',
        SYNC: { guard: 'syncsToAutomatic', target: 'automatic', actions: 'recordSync' },
      },
    },
    switchingToManual: {
      on: { SYNC: { actions: 'recordSync' } },
      invoke: {
        src: 'setMode',
        input: ({ context }) => ({ conversationId: context.conversationId, isManualMode: true }),
        onDone: {
          target: 'manual',
          actions: [
            { type: 'confirm', params: { isManualMode: true } },
            { type: 'notifySuccess', params: { isManualMode: true } },
          ],
        },
        onError: { target: 'rollingBack', actions: 'notifyFailure' },
      },
    },
    switchingToAutomatic: {
      on: { SYNC: { actions: 'recordSync' } },
      invoke: {
        src: 'setMode',
        input: ({ context }) => ({ conversationId: context.conversationId, isManualMode: false }),
        onDone: {
          target: 'automatic',
          actions: [
            { type: 'confirm', params: { isManualMode: false } },
            { type: 'notifySuccess', params: { isManualMode: false } },
          ],
        },
        onError: { target: 'rollingBack', actions: 'notifyFailure' },
      },
    },
    // Back to whatever the server last said, which another operator may have changed meanwhile.
    rollingBack: {
      always: [{ guard: 'startsManual', target: 'manual' }, { target: 'automatic' }],
    },
  },
});

/** What the switch shows: in-flight states already show the mode being switched to. */
export function showsManual(state: SnapshotFrom<typeof modeMachine>): boolean {
  return state.matches('manual') || state.matches('switchingToManual');
}
