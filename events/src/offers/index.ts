export * from './offer';
export * from './offer-book';
