import { z } from 'zod';
import { domainEvent } from './domain-events';
import { positionToken } from './position';

/** Every event type of the contract, in the order `domainEvent` lists them. */
export const EVENT_TYPES: readonly string[] = domainEvent.options.map((option) => option.shape.type.value);
const known = new Set(EVENT_TYPES);

/** The most events one `follow=false` page answers. */
export const FEED_PAGE_MAX = 10_000;

/** GET /api/events (docs/event-feed.md). */
export const eventFeedQuery = z.strictObject({
  after: positionToken.optional().describe('Answer the events after this position (exclusive); absent: from the beginning.'),
  types: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === '') return undefined;
      const types = value
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean);
      const unknown = types.filter((type) => !known.has(type));
      if (unknown.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `types: unknown event type ${unknown.join(', ')}; see /docs/asyncapi.json for the list`,
        });
        return z.NEVER;
      }
      return types;
    })
    .describe('Comma-separated event types to answer (default: all).'),
  follow: z
    .enum(['true', 'false'], { error: 'follow must be true or false' })
    .optional()
    .describe('true (default): stay open and stream new events; false: answer what is stored now and end.'),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(FEED_PAGE_MAX, { error: `limit is at most ${FEED_PAGE_MAX}` })
    .optional()
    .describe(`follow=false: at most this many events (default and most: ${FEED_PAGE_MAX}).`),
});
export type EventFeedQuery = z.infer<typeof eventFeedQuery>;
