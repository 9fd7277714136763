export * from './product';
export * from './needs';
export * from './upgrade';
