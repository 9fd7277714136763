import { parseIllustrateArgs } from './illustrate-args';
import { illustrate } from './illustration';
import { representativeExample } from './representative-example';

// npm run illustrate -- --loan 125000 --term-years 25 --rate 3.5:24 --rate 5.5 --fee 999 [--json]
// The figures of docs/behaviour/regulated-figures.md; bad arguments: one line naming the problem, exit 2.
try {
  const { input, json, lender } = parseIllustrateArgs(process.argv.slice(2));
  const figures = illustrate(input);
  if (json) {
    const { payments, totalAmountPayable, totalCostOfCredit, aprc } = figures;
    process.stdout.write(`${JSON.stringify({ payments, totalAmountPayable, totalCostOfCredit, aprc })}\n`);
  } else {
    process.stdout.write(`${representativeExample(input, lender)}\n`);
  }
} catch (error) {
  if (!(error instanceof RangeError)) throw error;
  process.stderr.write(`illustrate: ${error.message}\n`);
  process.exitCode = 2;
}
