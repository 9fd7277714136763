export * from './product';
export * from './needs';
export * from './upgrade';
export * from './sourcing';
