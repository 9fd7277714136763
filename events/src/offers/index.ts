export * from './offer';
export * from './offer-book';
export * from './agent-move';
export * from './read-offer';
