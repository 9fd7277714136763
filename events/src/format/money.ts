/**
 * The one British money and number style of the console (GOV.UK style: "£236,000", never "£236000.00" or
 * "$"). Two forms only: the full one for every figure a person may check, the compact one where room is short
 * (headline cards, chart axes). Amounts are whole pounds; a fee of £999.50 is written "£1,000".
 */

const grouped = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/** "12,345": a count or whole number with thousands separators. */
export function wholeNumber(value: number): string {
  return grouped.format(Math.round(value) || 0);
}

/** "£236,000", "-£1,500": the full form. */
export function pounds(value: number): string {
  const rounded = Math.round(value) || 0; // never "-0"
  if (rounded < 0) return `-£${grouped.format(-rounded)}`;
  return `£${grouped.format(rounded)}`;
}

const penceGrouped = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "£625.78", "£1,234.50": a sum a person pays to the penny (a monthly payment); every other amount is whole pounds. */
export function poundsAndPence(value: number): string {
  const pence = Math.round(value * 100) || 0; // never "-0"
  if (pence < 0) return `-£${penceGrouped.format(-pence / 100)}`;
  return `£${penceGrouped.format(pence / 100)}`;
}

/** Drops a trailing ".0": 1.0 → "1", 1.4 → "1.4". */
const oneDecimal = (value: number) => {
  const text = (Math.round(value * 10) / 10).toFixed(1);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
};

/**
 * "£950", "£9.5k", "£868k", "£1.4m", "£12m": the compact form. Below £1,000 it is the full form; thousands
 * keep one decimal under £10k and none above; millions keep one decimal. A value that rounds up to the next
 * unit is written in it (£999,600 is "£1m", not "£1000k").
 */
export function compactPounds(value: number): string {
  if (value < 0) return `-${compactPounds(-value)}`;
  const rounded = Math.round(value) || 0; // never "-0"
  if (rounded < 1_000) return pounds(rounded);
  if (rounded < 10_000) {
    const k = Math.round(rounded / 100) / 10;
    if (k < 10) return `£${oneDecimal(k)}k`;
  }
  const thousands = Math.round(rounded / 1_000);
  if (thousands < 1_000) return `£${thousands}k`;
  const millions = Math.round(rounded / 100_000) / 10;
  if (millions < 1_000) return `£${oneDecimal(millions)}m`;
  return `£${oneDecimal(Math.round(rounded / 100_000_000) / 10)}bn`;
}

/** "4.25%": a rate as written, at most `digits` decimals, trailing zeros dropped. */
export function percentage(value: number, digits = 2): string {
  const factor = 10 ** digits;
  return `${(Math.round(value * factor) / factor).toString()}%`;
}

/** "1 minute", "2 minutes", "1 deal", "1,200 deals", "1 match"/"3 matches" (give the plural when it is not +s). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${wholeNumber(count)} ${count === 1 ? one : many}`;
}
