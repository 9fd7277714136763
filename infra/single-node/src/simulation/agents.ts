import type { SimRandom } from './random';

/** Criteria people write for the simulation's agents, from a few shapes that fit each other more or less. */
const REGIONS = ['London', 'Manchester', 'Leeds', 'Bristol', 'Birmingham'];

export function borrowerCriteria(random: SimRandom): Record<string, string> {
  const value = random.int(20, 90) * 10_000;
  const ltv = random.pick([0.6, 0.7, 0.75, 0.8, 0.85, 0.9]);
  const loan = Math.round((value * ltv) / 1000) * 1000;
  const rateMin = random.pick([3, 3.5, 4]);
  const criteria: Record<string, string> = {
    propertyValueMin: `£${Math.round(value * 0.9).toLocaleString('en-GB')}`,
    propertyValueMax: `£${Math.round(value * 1.1).toLocaleString('en-GB')}`,
    interestRateMin: `${rateMin}%`,
    interestRateMax: `${rateMin + random.pick([1, 1.5, 2, 2.5])}%`,
    loanTermMin: `${random.pick([15, 20, 25])} years`,
    loanTermMax: `${random.pick([30, 35])} years`,
    loanAmount: random.chance(0.3)
      ? `£${Math.round(loan * 0.9).toLocaleString('en-GB')} to £${loan.toLocaleString('en-GB')}`
      : `£${loan.toLocaleString('en-GB')}`,
    annualIncome: `£${(random.int(4, 20) * 10_000).toLocaleString('en-GB')}`,
  };
  if (random.chance(0.5)) criteria.region = random.pick(REGIONS);
  if (random.chance(0.15)) {
    criteria.propertyType = 'buy-to-let';
    criteria.expectedRent = `£${random.int(10, 40) * 100} a month`;
  }
  return criteria;
}

export function lenderCriteria(random: SimRandom): Record<string, string> {
  const rateMin = random.pick([3.5, 3.9, 4.2, 4.5]);
  const criteria: Record<string, string> = {
    propertyValueMin: `£${random.int(10, 30) * 10_000}`,
    propertyValueMax: `£${random.int(60, 150) * 10_000}`,
    interestRateMin: `${rateMin}%`,
    interestRateMax: `${rateMin + random.pick([1, 1.5, 2])}%`,
    loanTermMin: `${random.pick([5, 10])} years`,
    loanTermMax: `${random.pick([30, 35, 40])} years`,
    maxLtv: random.pick(['75%', '80%', '85%', '90%', '95%']),
  };
  if (random.chance(0.4)) criteria.region = random.pick(REGIONS);
  if (random.chance(0.3)) criteria.propertyType = random.pick(['residential', 'residential, buy-to-let']);
  return criteria;
}
