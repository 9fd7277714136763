export * from './metrics';
export * from './collected';
export * from './metrics-route';
