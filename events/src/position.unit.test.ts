import { describe, expect, it } from 'vitest';
import { parsePosition, positionToken } from './position';

/** The wire form of a position (events/src/position.ts): what a client may send as after, x-after-position or resume. */
describe('position tokens', () => {
  const problem = (token: string) => positionToken.safeParse(token).error?.issues.map((issue) => issue.message);

  it('accepts positions any log can hold, up to the largest', () => {
    expect(parsePosition('812:40')).toEqual({ commit: 812n, prepare: 40n });
    expect(parsePosition('18446744073709551615:9223372036854775807')).toEqual({
      commit: 2n ** 64n - 1n,
      prepare: 2n ** 63n - 1n,
    });
  });

  it('refuses what is not two whole numbers, with one message and no exception', () => {
    for (const token of ['soon', '', '1:', ':1', '1:2:3', '-1:0', '1.5:0'])
      expect(problem(token)).toEqual(['A position is two whole numbers joined by a colon, such as "812:40"']);
  });

  it('refuses parts beyond what PostgreSQL and EventStoreDB can hold', () => {
    for (const token of ['99999999999999999999:0', '18446744073709551616:0', '0:9223372036854775808'])
      expect(problem(token)).toEqual([
        "A position's first number is at most 18446744073709551615 and its second at most 9223372036854775807",
      ]);
    expect(() => parsePosition('99999999999999999999:0')).toThrow(RangeError);
  });
});
