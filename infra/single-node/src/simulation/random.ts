/** The simulation's seeded randomness (mulberry32): the same seed gives the same choices, step for step. */
export interface SimRandom {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function seededRandom(seed: number): SimRandom {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from nothing');
      return items[Math.floor(next() * items.length)]!;
    },
    chance: (p) => next() < p,
  };
}

/** One of the British ways of writing an amount that says it exactly ("£315,000", "£315k", "£0.315m", "315,000"). */
export function writePounds(random: SimRandom, pounds: number): string {
  const ways = [`£${pounds.toLocaleString('en-GB')}`, `£${pounds}`];
  if (pounds >= 1000) ways.push(pounds.toLocaleString('en-GB'));
  if (pounds % 100 === 0) ways.push(`£${pounds / 1000}k`, `£${pounds / 1000}K`);
  if (pounds % 1000 === 0 && pounds >= 100_000) ways.push(`£${pounds / 1e6}m`, `£${pounds / 1e6} million`);
  return random.pick(ways);
}
