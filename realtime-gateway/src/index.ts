export { attachRealtimeGateway, type GatewayOptions, type RealtimeGateway } from './gateway';
export { controlRequestRule } from './presence';
// The typing signal lives in infra so that the automation can send it without importing this service.
export { notifyTyping, TYPING_CHANNEL, type TypingSignal } from '@pf/infra';
