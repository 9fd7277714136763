import type { DomainEvent, FeedEnvelope } from '@pf/events';

/** What the feed knows of the people behind a batch: who deleted their account, and each agent's owner. */
export interface PeopleOfBatch {
  readonly deleted: ReadonlySet<string>;
  readonly ownerOf: (agentId: number) => string | undefined;
}

/**
 * Removes a deleted person's personal data from an event before the feed answers it (docs/event-feed.md
 * "Personal data"), as the read models forget them: their agents' names, descriptions and criteria, what
 * they typed as their agent, their documents' names, the session they acted in. Figures (amounts, rates,
 * counts, types, ids) stay, so a job's totals do not change when a person leaves. The fields emptied are
 * named in `redacted`. A person's own stream (profile, preferences) never reaches the feed at all.
 */
export function redactDeleted(envelope: FeedEnvelope, people: PeopleOfBatch): FeedEnvelope {
  if (people.deleted.size === 0) return envelope;
  const gone = (userId: string | undefined) => userId !== undefined && people.deleted.has(userId);
  const event = { type: envelope.type, data: envelope.data } as DomainEvent;
  const redacted: string[] = [];
  let data = envelope.data as Record<string, unknown>;
  const empty = (fields: Record<string, unknown>) => {
    data = { ...data, ...fields };
    redacted.push(...Object.keys(fields).map((field) => `data.${field}`));
  };
  switch (event.type) {
    case 'AgentCreated':
      if (gone(event.data.ownerId)) empty({ name: '', description: '', criteria: null });
      break;
    case 'AgentUpdated':
      if (gone(people.ownerOf(event.data.agentId))) empty({ name: '', description: '', criteria: null });
      break;
    case 'MessageSent':
      if (!event.data.isAutomated && gone(people.ownerOf(event.data.fromAgentId))) empty({ content: '' });
      break;
    case 'ConversationStarted': {
      const participants = event.data.participants.map((p) => (gone(p.ownerId) ? { ...p, name: '' } : p));
      if (participants.some((p, i) => p !== event.data.participants[i])) empty({ participants });
      break;
    }
    case 'DealOpened': {
      const roles = (['borrower', 'lender', 'broker'] as const).filter((role) => gone(event.data[role]?.ownerId));
      if (roles.length > 0) empty(Object.fromEntries(roles.map((role) => [role, { ...event.data[role]!, name: '' }])));
      break;
    }
    case 'DocumentUploaded':
      if (gone(event.data.uploadedBy.userId)) empty({ name: '', uploadedBy: { userId: event.data.uploadedBy.userId } });
      break;
    default:
      break;
  }
  let metadata = envelope.metadata;
  if (metadata.actor.kind === 'user' && gone(metadata.actor.userId) && metadata.actor.sessionId !== undefined) {
    metadata = { ...metadata, actor: { kind: 'user', userId: metadata.actor.userId } };
    redacted.push('metadata.actor.sessionId');
  }
  return redacted.length === 0 ? envelope : { ...envelope, data, metadata, redacted };
}
