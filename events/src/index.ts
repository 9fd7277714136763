export * from './agent';
export * from './conversation';
export * from './domain-events';
export * from './envelope';
export * from './negotiation';
export * from './position';
export * from './socket';
export * from './user-messages';
