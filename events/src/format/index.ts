export * from './money';
export * from './rates';
export * from './words';
export * from './criteria';
