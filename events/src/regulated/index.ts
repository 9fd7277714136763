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
export { ILLUSTRATION_UPLOADER_ID, ILLUSTRATION_UPLOADER_NAME } from './illustration-document';
