export * from './view';
export * from './agents';
export * from './conversations';
export * from './messages';
export * from './matches';
export * from './deals';
export * from './deals-agreed';
export * from './erasure';
