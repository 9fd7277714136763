import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

export interface ModeInput {
  conversationId: number;
  /** Whether this session holds a side of the conversation, as the server last said. */
  isManualMode: boolean;
}

/** A switch sent: take over (or hand back) these sides, by their agents. */
export interface SwitchRequest {
  conversationId: number;
  isManualMode: boolean;
  agentIds: number[];
}

/**
 * What the server answered a switch with: whether this session now holds a side, whether that is what was asked
 * (every side named taken here, or every one handed back), and the words for the toast.
 */
export interface SwitchAnswer {
  holdsHere: boolean;
  asAsked: boolean;
  words: string;
}

interface ModeContext {
  conversationId: number;
  /** Whether this session holds a side, as the server last confirmed (loaded view, a push, or our own command's answer). */
  confirmedManual: boolean;
  /** The sides the switch in flight names. */
  agentIds: number[];
}

export type ModeEvent =
  /** The operator flipped the switch: the sides to take over (or, holding some here, to hand back). */
  | { type: 'TOGGLE'; agentIds: number[] }
  /** The server's view changed: the loaded conversation, or a push (another session, a colleague, a hand-over). */
  | { type: 'SYNC'; isManualMode: boolean };

/**
 * The manual/automatic switch (docs/behaviour/conversations.md, "Taking over"): the screen flips at once and the
 * command is sent; the switch then lands where the server's answer says, and the toast says what the server did,
 * never a success it did not get: a refusal rolls back with the server's words, and an answer other than what was
 * asked (a colleague holds the side) lands where the server is, saying so. While a command is in flight a SYNC
 * only records the server's view.
 */
export const modeMachine = setup({
  types: {
    context: {} as ModeContext,
    events: {} as ModeEvent,
    input: {} as ModeInput,
  },
  actors: {
    // Replaced by the screen with the real PATCH; resolves with what the server answered.
    setMode: fromPromise<SwitchAnswer, SwitchRequest>(async () => {
      throw new Error('setMode not provided');
    }),
  },
  actions: {
    notifyFailure: () => undefined,
    /** The server did as asked: its words. */
    notifySuccess: (_, _params: { words: string }) => undefined,
    /** The server answered, but not as asked (the side is someone else's): its words, as a warning. */
    notifyOtherwise: (_, _params: { words: string }) => undefined,
    remember: assign({ agentIds: ({ event }) => (event.type === 'TOGGLE' ? event.agentIds : []) }),
    confirm: assign({ confirmedManual: (_, params: { holdsHere: boolean }) => params.holdsHere }),
    recordSync: assign({ confirmedManual: ({ event }) => (event.type === 'SYNC' ? event.isManualMode : false) }),
  },
  guards: {
    startsManual: ({ context }) => context.confirmedManual,
    syncsToManual: ({ event }) => event.type === 'SYNC' && event.isManualMode,
    syncsToAutomatic: ({ event }) => event.type === 'SYNC' && !event.isManualMode,
    asAsked: (_, params: SwitchAnswer) => params.asAsked,
  },
}).createMachine({
  id: 'mode',
  context: ({ input }) => ({ conversationId: input.conversationId, confirmedManual: input.isManualMode, agentIds: [] }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'startsManual', target: 'manual' }, { target: 'automatic' }],
    },
    automatic: {
      on: {
        TOGGLE: { target: 'switchingToManual', actions: 'remember' },
        SYNC: { guard: 'syncsToManual', target: 'manual', actions: 'recordSync' },
      },
    },
    manual: {
      on: {
        TOGGLE: { target: 'switchingToAutomatic', actions: 'remember' },
        SYNC: { guard: 'syncsToAutomatic', target: 'automatic', actions: 'recordSync' },
      },
    },
    switchingToManual: {
      on: { SYNC: { actions: 'recordSync' } },
      invoke: {
        src: 'setMode',
        input: ({ context }) => ({ conversationId: context.conversationId, isManualMode: true, agentIds: context.agentIds }),
        onDone: [
          {
            guard: { type: 'asAsked', params: ({ event }) => event.output },
            target: 'rollingBack',
            actions: [
              { type: 'confirm', params: ({ event }) => event.output },
              { type: 'notifySuccess', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'rollingBack',
            actions: [
              { type: 'confirm', params: ({ event }) => event.output },
              { type: 'notifyOtherwise', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: { target: 'rollingBack', actions: 'notifyFailure' },
      },
    },
    switchingToAutomatic: {
      on: { SYNC: { actions: 'recordSync' } },
      invoke: {
        src: 'setMode',
        input: ({ context }) => ({ conversationId: context.conversationId, isManualMode: false, agentIds: context.agentIds }),
        onDone: [
          {
            guard: { type: 'asAsked', params: ({ event }) => event.output },
            target: 'rollingBack',
            actions: [
              { type: 'confirm', params: ({ event }) => event.output },
              { type: 'notifySuccess', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'rollingBack',
            actions: [
              { type: 'confirm', params: ({ event }) => event.output },
              { type: 'notifyOtherwise', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: { target: 'rollingBack', actions: 'notifyFailure' },
      },
    },
    // To whatever the server last said, which another person may have changed meanwhile.
    rollingBack: {
      always: [{ guard: 'startsManual', target: 'manual' }, { target: 'automatic' }],
    },
  },
});

/** What the switch shows: in-flight states already show the mode being switched to. */
export function showsManual(state: SnapshotFrom<typeof modeMachine>): boolean {
  return state.matches('manual') || state.matches('switchingToManual');
}
