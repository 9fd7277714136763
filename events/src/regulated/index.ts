export {
  illustrate,
  illustrationInputSchema,
  parseIllustrationInput,
  trueCostOverInitialPeriod,
  type Illustration,
  type IllustrationInput,
  type RatePeriod,
} from './illustration';
export { representativeExample, termInWords } from './representative-example';
