/** Pounds sterling and percentages as the console writes them (British English, spec §9). */
export const pounds = (value: number) => `£${Math.round(value).toLocaleString('en-GB')}`;
export const compactPounds = (value: number) =>
  value >= 1_000_000 ? `£${(value / 1_000_000).toFixed(1)}M` : value >= 1_000 ? `£${(value / 1_000).toFixed(1)}K` : `£${Math.round(value)}`;
export const percent = (value: number, digits = 1) => `${value.toFixed(digits)}%`;
export const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const monthLabel = (isoMonth: string) => new Date(`${isoMonth}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "3 minutes ago", "2 days ago" (spec §3: a notification's relative time). */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const format = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
  if (seconds < 60) return format.format(-seconds, 'second');
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), 'hour');
  return format.format(-Math.floor(seconds / 86_400), 'day');
}

/** Days with one decimal; under a day, hours (a negotiation takes minutes, a completion weeks). */
export function duration(days: number): string {
  if (days >= 1) return `${days.toFixed(1)} days`;
  const hours = days * 24;
  if (hours >= 1) return `${hours.toFixed(1)} hours`;
  return `${Math.max(1, Math.round(hours * 60))} minutes`;
}
