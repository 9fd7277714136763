/**
 * Rates and shares in the one style of the console (docs/behaviour/console-layout.md, "Money and numbers"): an
 * interest rate always to two decimals ("4.90%", "5.00%"), so rates side by side line up and never read "4.9%"
 * beside "4.91%"; a loan to value to one decimal ("72.7%"); other shares (a success rate, a change) to one.
 */

const fixed = (value: number, digits: number) => {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor || 0; // never "-0.00"
  return rounded.toFixed(digits);
};

/** "4.90%", "5.00%", "4.13%": an interest rate (or APR-like rate) to two decimals. */
export const ratePercent = (value: number): string => `${fixed(value, 2)}%`;

/** "72.7%", "80.0%": a loan to value, given as a percentage. */
export const ltvPercent = (value: number): string => `${fixed(value, 1)}%`;

/** "72.7%": the loan to value of a loan against a property's value (null without a value). */
export const ltvOf = (loanAmount: number, propertyValue: number): string | null =>
  propertyValue > 0 ? ltvPercent((loanAmount / propertyValue) * 100) : null;

/** "45.5%", "-3.0%": a share or a change, to one decimal unless told. */
export const sharePercent = (value: number, digits = 1): string => `${fixed(value, digits)}%`;
