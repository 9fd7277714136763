import { describe, expect, it } from 'vitest';
import { Conflict, NotFound } from '@pf/infra';
import { deciderSpec } from '../../testing/decider-spec';
import { protectionDecider } from './protection';
import { newRecoveryCodes, totpStep } from './secrets';

const spec = deciderSpec(protectionDecider);
const userId = 'u-1';

describe('protection decider', () => {
  it('records the first password as first, and a later one not', () => {
    spec
      .given([])
      .when({ type: 'ChangePassword', userId })
      .then([{ type: 'PasswordChanged', data: { userId, first: true } }]);
    spec
      .given([{ type: 'PasswordChanged', data: { userId, first: true } }])
      .when({ type: 'ChangePassword', userId })
      .then([{ type: 'PasswordChanged', data: { userId, first: false } }]);
  });

  it('turns two-factor on only after a password, and on or off once', () => {
    spec.given([]).when({ type: 'EnableTwoFactor', userId, recoveryCodes: 10 }).thenThrows(Conflict, 'Set a password first');
    const protectedAccount = [{ type: 'PasswordChanged' as const, data: { userId, first: true } }];
    spec
      .given(protectedAccount)
      .when({ type: 'EnableTwoFactor', userId, recoveryCodes: 10 })
      .then([{ type: 'TwoFactorEnabled', data: { userId, recoveryCodes: 10 } }]);
    spec.given(protectedAccount).when({ type: 'DisableTwoFactor', userId, confirmedWith: 'password' }).thenThrows(Conflict, 'already off');
    spec
      .given([...protectedAccount, { type: 'TwoFactorEnabled', data: { userId, recoveryCodes: 10 } }])
      .when({ type: 'EnableTwoFactor', userId, recoveryCodes: 10 })
      .thenThrows(Conflict, 'already on');
  });

  it('accepts nothing for a deleted account', () => {
    spec
      .given([{ type: 'AccountDeleted', data: { userId } }])
      .when({ type: 'ChangePassword', userId })
      .thenThrows(NotFound, 'deleted');
  });
});

describe('TOTP codes (RFC 6238 Appendix B, SHA-1; the 6-digit code is the last 6 digits of its 8-digit one)', () => {
  // The RFC's key, the ASCII "12345678901234567890", in base32.
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

  it("answers the time step of the RFC's codes, and of the step either side", () => {
    expect(totpStep(secret, '287082', 59_000)).toBe(1);
    expect(totpStep(secret, '050471', 1_111_111_111_000)).toBe(37_037_037);
    expect(totpStep(secret, '081804', 1_111_111_111_000)).toBe(37_037_036);
    expect(totpStep(secret, '005924', 1_234_567_890_000)).toBe(41_152_263);
  });

  it('refuses a code of another time, or one that is not six digits', () => {
    expect(totpStep(secret, '005924', 59_000)).toBeNull();
    expect(totpStep(secret, '28708', 59_000)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten, each ten base32 characters shown as XXXXX-XXXXX, all different', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(new Set(codes).size).toBe(10);
  });
});
