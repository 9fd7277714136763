import type { EventOf, RecordMatch } from '@pf/events';
import type { Decider } from '../handle-command';

type MatchFound = EventOf<'MatchFound'>;
export type { RecordMatch } from '@pf/events';

/** A match is recorded once. */
export const matchDecider: Decider<RecordMatch, { recorded: boolean }, MatchFound> = {
  initialState: { recorded: false },
  decide: (command, state) => {
    if (state.recorded) return [];
    const { type: _command, ...data } = command;
    return [{ type: 'MatchFound', data }];
  },
  evolve: () => ({ recorded: true }),
};
