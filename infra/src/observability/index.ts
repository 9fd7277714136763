export * from './metrics';
export * from './collected';
export * from './metrics-route';
export * from './summary';
export { inSpan, startTracing, traceparentOf, tracingOn } from './tracing';
export { requestTraceparent } from './request-span';
