import { domainEvent, type DomainEvent } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';

/** A stored event the gateway understands, or null (a type added later, or bad data, is skipped). */
export function readEvent(recorded: RecordedEvent): DomainEvent | null {
  const parsed = domainEvent.safeParse({ type: recorded.type, data: recorded.data });
  return parsed.success ? parsed.data : null;
}
