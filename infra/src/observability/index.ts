export * from './metrics';
export * from './collected';
export * from './metrics-route';
export * from './summary';
