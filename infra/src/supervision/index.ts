export * from './backoff';
export * from './follow';
export * from './leadership';
export * from './supervisor';
