/**
 * MCOB 10A.2.2R: the APRC is the X at which the present value of what the borrower receives at the start equals
 * the present value of every payment, the k-th monthly payment falling k/12 of a year after the drawdown (the
 * twelve equal months of MCOB 10A.2.3R(3)(a)). `advanced` is the credit drawn less the charges paid at the start.
 */
export function presentValue(monthly: readonly number[], annualRate: number): number {
  const factor = (1 + annualRate) ** (-1 / 12);
  let discount = 1;
  let total = 0;
  for (const payment of monthly) {
    discount *= factor;
    total += payment * discount;
  }
  return total;
}

/**
 * The X of MCOB 10A.2.2R in percent, unrounded: found by bisection, since the present value falls strictly as X
 * rises (every payment is positive), so the root is unique and bracketing cannot miss it.
 */
export function solveAprc(advanced: number, monthly: readonly number[]): number {
  if (!(advanced > 0)) throw new RangeError('the fees and charges at the start leave no credit advanced');
  let low = -0.99;
  let high = 1;
  while (presentValue(monthly, high) > advanced) {
    high *= 2;
    if (high > 1e6) throw new RangeError('no APRC solves the equation for these payments');
  }
  if (presentValue(monthly, low) < advanced) throw new RangeError('no APRC solves the equation for these payments');
  for (let step = 0; step < 200 && high - low > 1e-14; step += 1) {
    const middle = (low + high) / 2;
    if (presentValue(monthly, middle) > advanced) low = middle;
    else high = middle;
  }
  return ((low + high) / 2) * 100;
}
