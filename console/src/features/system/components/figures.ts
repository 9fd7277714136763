/** How the System screen writes its measures: a rate to one decimal, a time in ms below a second, in s above. */
export const perSecond = (value: number | null) => (value === null ? null : `${value.toFixed(1)}/s`);

export function milliseconds(value: number | null): string {
  if (value === null) return '–';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}

export function seconds(value: number | null): string {
  if (value === null) return '–';
  return value < 10 ? `${value.toFixed(1)} s` : `${Math.round(value).toLocaleString('en-GB')} s`;
}

/** 1.5 MB, 820 kB: a backup's size. */
export function bytes(value: number): string {
  if (value >= 1_000_000_000) return `${(value / 1_000_000_000).toFixed(1)} GB`;
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(value / 1000))} kB`;
}
