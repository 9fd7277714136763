import { expect } from 'vitest';
import type { DomainEvent } from '@pf/events';
import type { Decider } from '../handle-command';

/** given(events).when(command).then(events) — emmett's DeciderSpecification in a few lines. */
export function deciderSpec<C, S, E extends DomainEvent>(decider: Decider<C, S, E>) {
  return {
    given(events: E[]) {
      const state = events.reduce((state, event) => decider.evolve(state, event), decider.initialState);
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(type: new (...args: never[]) => Error, message?: string | RegExp) {
              expect(run).toThrow(type);
              if (message) expect(run).toThrow(message);
            },
          };
        },
      };
    },
  };
}
