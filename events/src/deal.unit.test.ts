import { describe, expect, it } from 'vitest';
import { changeDealInput, isCalendarDate, newDealInput } from './deal';

const valid = {
  propertyAddress: '12 Elm Street',
  borrowerAgentId: 1,
  lenderAgentId: 2,
  propertyValue: 400_000,
  loanAmount: 300_000,
  interestRate: 4.3,
  termYears: 25,
};

describe('target completion is a real calendar date', () => {
  it('knows which days exist, leap years included', () => {
    expect(['2026-09-30', '2028-02-29', '2000-02-29'].map(isCalendarDate)).toEqual([true, true, true]);
    expect(['2026-13-45', '2026-02-29', '1900-02-29', '2026-04-31', '2026-00-10', '2026-9-30', ''].map(isCalendarDate)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('refuses an impossible date on New Deal and on Edit with a message naming the field', () => {
    const created = newDealInput.safeParse({ ...valid, targetCompletion: '2026-13-45' });
    expect(created.success).toBe(false);
    expect(created.error!.issues).toEqual([
      expect.objectContaining({
        path: ['targetCompletion'],
        message: 'Target completion must be a real calendar date; 2026-13-45 is not one',
      }),
    ]);
    const edited = changeDealInput.safeParse({ targetCompletion: '2026-02-30' });
    expect(edited.error!.issues[0]).toMatchObject({
      path: ['targetCompletion'],
      message: 'Target completion must be a real calendar date; 2026-02-30 is not one',
    });
    expect(newDealInput.safeParse({ ...valid, targetCompletion: '30/09/2026' }).error!.issues[0]!.message).toBe(
      'Target completion must be a date such as 2026-09-30',
    );
  });

  it('accepts a real date, null, or none', () => {
    expect(newDealInput.parse({ ...valid, targetCompletion: '2026-09-30' }).targetCompletion).toBe('2026-09-30');
    expect(newDealInput.parse({ ...valid, targetCompletion: null }).targetCompletion).toBeNull();
    expect(changeDealInput.parse({ targetCompletion: '2028-02-29' })).toEqual({ targetCompletion: '2028-02-29' });
  });
});
