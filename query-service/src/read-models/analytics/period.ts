const DAY = 86_400_000;

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** A period of whole UTC days ending today (`to` is now), and the same length just before it. */
export function dayWindow(days: number, now: Date): { from: Date; to: Date; previousFrom: Date } {
  const from = new Date(startOfUtcDay(now).getTime() - (days - 1) * DAY);
  return { from, to: now, previousFrom: new Date(from.getTime() - days * DAY) };
}

/** Whole UTC months ending with this one (`months` of them), and the same length just before. */
export function monthWindow(months: number, now: Date): { from: Date; to: Date; previousFrom: Date } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  return { from, to: now, previousFrom: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (2 * months - 1), 1)) };
}

/** Bucket starts covering [from, to]: each day, each 7 days from `from`, or each calendar month. */
export function bucketStarts(kind: 'day' | 'week' | 'month', from: Date, to: Date): Date[] {
  const starts: Date[] = [];
  if (kind === 'month') {
    for (
      let m = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
      m <= to;
      m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))
    )
      starts.push(m);
    return starts;
  }
  const step = kind === 'day' ? DAY : 7 * DAY;
  for (let t = from.getTime(); t <= to.getTime(); t += step) starts.push(new Date(t));
  return starts;
}

/** The index of the bucket `at` falls in (the last start at or before it); -1 before the first. */
export function bucketOf(starts: readonly Date[], at: Date): number {
  let index = -1;
  for (let i = 0; i < starts.length && starts[i]!.getTime() <= at.getTime(); i += 1) index = i;
  return index;
}

export const inRange = (at: string | null, from: Date, to: Date) =>
  at !== null && Date.parse(at) >= from.getTime() && Date.parse(at) <= to.getTime();
export const before = (at: string | null, from: Date, until: Date) =>
  at !== null && Date.parse(at) >= from.getTime() && Date.parse(at) < until.getTime();
export const round1 = (value: number) => Math.round(value * 10) / 10;
export const round2 = (value: number) => Math.round(value * 100) / 100;
export const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / DAY;
