import { sharePercent } from '@pf/events';

/**
 * Dates as the console writes them (British English). Every figure (money, rates, LTV, shares) comes from the one
 * format module of @pf/events (docs/behaviour/console-layout.md, "Money and numbers"); `percent` is its share.
 */
export const percent = sharePercent;
export const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const monthLabel = (isoMonth: string) =>
  new Date(`${isoMonth}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "3 minutes ago", "2 days ago" (a notification's relative time). */
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
  const unit = (value: number, one: string) => `${value} ${value === 1 ? one : `${one}s`}`;
  if (days >= 1) return unit(Number(days.toFixed(1)), 'day');
  const hours = days * 24;
  if (hours >= 1) return unit(Number(hours.toFixed(1)), 'hour');
  return unit(Math.max(1, Math.round(hours * 60)), 'minute');
}
