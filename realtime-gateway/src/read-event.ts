import { readStoredEventOrNull, type DomainEvent } from '@pf/events';
import type { StoredEvent } from '@pf/infra';

/**
 * A stored event the gateway understands, through the contract's reader (docs/architecture.md, "Stored events"), or
 * null: the gateway goes on past an event the contract refuses (a type added later, or bad data), pushing nothing for it.
 */
export function readEvent(recorded: StoredEvent): DomainEvent | null {
  return readStoredEventOrNull(recorded);
}
