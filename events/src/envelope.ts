import { z } from 'zod';
import { positionToken } from './position';

/** Who caused an event: a signed-in person, an automated agent, or the system itself. */
export const actor = z.discriminatedUnion('kind', [
  // sessionId: the public id of the session the person acted in (auditors ask "which sign-in"); absent on older events.
  z.object({ kind: z.literal('user'), userId: z.string(), sessionId: z.string().optional() }),
  z.object({ kind: z.literal('agent'), agentId: z.number().int() }),
  z.object({ kind: z.literal('system'), name: z.string() }),
]);
export type Actor = z.infer<typeof actor>;

export const eventMetadata = z.object({
  actor,
  correlationId: z.string(),
  /** The id of the event or request that caused this one; process managers key decisions by it. */
  causationId: z.string().nullable(),
  /** The W3C trace context of the work that stored it, when traces are on (docs/operations/observability.md "Traces"). */
  traceparent: z
    .string()
    .regex(/^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/)
    .optional(),
});
export type EventMetadata = z.infer<typeof eventMetadata>;

/** An event as stored: the same envelope whichever adapter holds it, and the JSON published to Kafka. */
export const recordedEventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  stream: z.string(),
  streamVersion: z.number().int().nonnegative(),
  position: positionToken,
  recordedAt: z.string(),
  data: z.unknown(),
  metadata: eventMetadata,
});
export type RecordedEventEnvelope = z.infer<typeof recordedEventEnvelope>;

/**
 * An event as the event feed answers it (docs/event-feed.md): the stored envelope, and, when a person who
 * deleted their account is in it, the fields emptied of their personal data.
 */
export const feedEnvelope = recordedEventEnvelope.extend({
  redacted: z
    .array(z.string())
    .optional()
    .describe('The fields emptied because a person behind the event deleted their account (the feed, and the Kafka topic from then on).'),
});
export type FeedEnvelope = z.infer<typeof feedEnvelope>;
