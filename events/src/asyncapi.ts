import { z } from 'zod';
import { domainEvent } from './domain-events';
import { feedEnvelope } from './envelope';
import { clientMessage, serverMessage } from './socket';

/**
 * The one description of the event stream (docs/event-feed.md): an AsyncAPI 3 document generated from this
 * contract, so a new event type or socket message is described the moment it is added here. It covers the
 * Kafka topic, the HTTP event feed (`GET /api/events`) and the `/ws` messages; the HTTP routes themselves are
 * described by the OpenAPI document at /docs/json.
 */
export interface AsyncApiOptions {
  /** The Kafka topic (KAFKA_TOPIC). */
  readonly topic: string;
  /** host[:port] the platform is reached at (PUBLIC_URL's host), for the feed and the socket. */
  readonly host?: string;
  readonly kafkaHost?: string;
}

type JsonSchema = Record<string, unknown>;

const toJson = (schema: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const DELIVERY =
  'At-least-once: an event may arrive twice (after a lost acknowledgement or a resumed read), never not at all. ' +
  'In order per stream: the events of one stream arrive in stream order (`streamVersion` counts up by one); ' +
  'events of different streams may interleave differently on the topic than in the feed. ' +
  'Deduplicate by `id`, or by (`stream`, `streamVersion`).';

/** The stored envelope with `type` fixed and `data` the event's own schema. */
function envelopeOf(option: (typeof domainEvent.options)[number]): JsonSchema {
  const base = toJson(feedEnvelope);
  const event = toJson(option) as { properties: { type: JsonSchema; data: JsonSchema } };
  const properties = base.properties as Record<string, JsonSchema>;
  return {
    ...base,
    properties: {
      ...properties,
      id: { ...properties.id, description: 'The event id (a UUID): the same on the topic and in the feed.' },
      type: event.properties.type,
      stream: { ...properties.stream, description: 'The stream (aggregate instance), e.g. "agent-12"; the Kafka message key.' },
      streamVersion: { ...properties.streamVersion, description: 'The event version in its stream, from 0.' },
      position: { ...properties.position, description: 'The global position "commit:prepare"; resume the feed after it.' },
      recordedAt: { ...properties.recordedAt, description: 'When the store recorded it (ISO 8601, UTC).' },
      data: event.properties.data,
    },
  };
}

function socketMessages(union: typeof clientMessage | typeof serverMessage, prefix: string) {
  const messages: Record<string, JsonSchema> = {};
  for (const option of union.options) {
    const type = (option.shape.type as z.ZodLiteral<string>).value;
    messages[`${prefix}_${type}`] = {
      name: type,
      title: `${type} (${prefix === 'client' ? 'browser to server' : 'server to browser'})`,
      payload: toJson(option),
    };
  }
  return messages;
}

export function asyncApiDocument(options: AsyncApiOptions): Record<string, unknown> {
  const host = options.host ?? 'localhost:5000';
  const eventMessages: Record<string, JsonSchema> = {};
  for (const option of domainEvent.options) {
    const type = option.shape.type.value;
    eventMessages[type] = {
      name: type,
      title: type,
      contentType: 'application/json',
      payload: envelopeOf(option),
      headers: {
        type: 'object',
        description: 'Kafka message headers (the feed has none).',
        properties: { 'event-id': { type: 'string' }, 'event-type': { type: 'string', const: type } },
      },
      bindings: { kafka: { key: { type: 'string', description: 'The stream: one stream, one partition.' } } },
    };
  }
  const refs = (names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/messages/${name}` }]));
  const client = socketMessages(clientMessage, 'client');
  const server = socketMessages(serverMessage, 'server');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Property-finance agent platform: event stream',
      version: '1.0.0',
      description:
        'Every domain event of the platform, as the Kafka topic carries it and the event feed answers it ' +
        '(one JSON envelope: id, type, stream, streamVersion, position, recordedAt, data, metadata), ' +
        'and the messages of the live socket /ws. ' +
        DELIVERY,
    },
    defaultContentType: 'application/json',
    servers: {
      kafka: { host: options.kafkaHost ?? 'localhost:9092', protocol: 'kafka', description: 'KAFKA_BROKERS, when set.' },
      http: { host, protocol: 'http', description: 'The event feed: a Bearer API token with the scope events:read.' },
      ws: { host, protocol: 'ws', pathname: '/ws', description: 'The console socket: a signed-in browser session (cookie) only.' },
    },
    channels: {
      eventTopic: {
        address: options.topic,
        title: 'Kafka topic',
        description: `Every event, keyed by stream. ${DELIVERY}`,
        servers: [{ $ref: '#/servers/kafka' }],
        messages: refs(Object.keys(eventMessages)),
        bindings: { kafka: { topic: options.topic } },
      },
      eventFeed: {
        address: '/api/events',
        title: 'Event feed',
        description:
          'GET /api/events?after=<position>&types=<Type,Type>: newline-delimited JSON, one envelope per line, ' +
          "in global order, of the token's firm's events; the answer stays open and streams new events " +
          '(a blank line every 15 s keeps it alive) unless `follow=false`. Resume after the last position read. ' +
          DELIVERY,
        servers: [{ $ref: '#/servers/http' }],
        messages: refs(Object.keys(eventMessages)),
        bindings: { http: { method: 'GET' } },
      },
      socket: {
        address: '/',
        title: 'Live socket',
        description: 'What a browser sends on /ws and what the server pushes.',
        servers: [{ $ref: '#/servers/ws' }],
        messages: refs([...Object.keys(client), ...Object.keys(server)]),
      },
    },
    operations: {
      publishEvents: {
        action: 'send',
        title: 'The relay publishes every event to the topic',
        channel: { $ref: '#/channels/eventTopic' },
        messages: Object.keys(eventMessages).map((name) => ({ $ref: `#/channels/eventTopic/messages/${name}` })),
      },
      streamEventFeed: {
        action: 'send',
        title: 'The feed answers events to an API token',
        channel: { $ref: '#/channels/eventFeed' },
        messages: Object.keys(eventMessages).map((name) => ({ $ref: `#/channels/eventFeed/messages/${name}` })),
      },
      receiveSocketMessages: {
        action: 'receive',
        title: 'Messages a browser sends',
        channel: { $ref: '#/channels/socket' },
        messages: Object.keys(client).map((name) => ({ $ref: `#/channels/socket/messages/${name}` })),
      },
      pushSocketMessages: {
        action: 'send',
        title: 'Pushes to a browser',
        channel: { $ref: '#/channels/socket' },
        messages: Object.keys(server).map((name) => ({ $ref: `#/channels/socket/messages/${name}` })),
      },
    },
    components: { messages: { ...eventMessages, ...client, ...server } },
  };
}
