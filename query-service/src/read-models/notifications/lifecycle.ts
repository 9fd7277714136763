import { dealFirmsOf, pounds, type DomainEvent, type EventMetadata, type EventOf } from '@pf/events';
import type { Candidate } from './derive';

/**
 * Notifications from the deal and document events (DealOpened, DealStatusChanged, DocumentUploaded,
 * DocumentStatusChanged). A deal's or a
 * document's owners and name are kept (rm_notification_subjects) from the event that opened it, since the later
 * events carry only its id.
 */
export type SubjectEvent = EventOf<'DealOpened' | 'DealStatusChanged' | 'DocumentUploaded' | 'DocumentStatusChanged'>;

export interface Subject {
  id: string;
  title: string;
  ownerIds: string[];
  /** Who uploaded a document (told when it is rejected); null for a deal. */
  uploaderId: string | null;
}

const TYPES = new Set(['DealOpened', 'DealStatusChanged', 'DocumentUploaded', 'DocumentStatusChanged']);
export const isSubjectEvent = (event: DomainEvent): event is SubjectEvent => TYPES.has(event.type);

export function subjectIdOf(event: SubjectEvent): string {
  switch (event.type) {
    case 'DealOpened':
    case 'DealStatusChanged':
      return `deal:${event.data.dealId}`;
    default:
      return `document:${event.data.documentId}`;
  }
}

/** The subject an opening event records (null for a change). */
export function subjectOpened(event: SubjectEvent): Subject | null {
  if (event.type === 'DealOpened') {
    const d = event.data;
    return {
      id: subjectIdOf(event),
      title: d.propertyAddress
        ? `the deal for ${d.propertyAddress}`
        : `the ${pounds(d.loanAmount)} deal between ${d.borrower.name} and ${d.lender.name}`,
      ownerIds: dealFirmsOf(d),
      uploaderId: null,
    };
  }
  if (event.type === 'DocumentUploaded') {
    return {
      id: subjectIdOf(event),
      title: event.data.name,
      ownerIds: [...new Set(event.data.ownerIds)],
      uploaderId: event.data.uploadedBy.userId,
    };
  }
  return null;
}

/** A deal cancelled is high, completed medium; a document uploaded by someone else low, one rejected high. */
export function subjectNotifications(event: SubjectEvent, subject: Subject | null, metadata: EventMetadata): Candidate[] {
  if (!subject) return [];
  // ownerIds are firms (dealFirmsOf; a document's firms as uploaded). The uploader's firm of one is not told of its
  // own upload; an event names the uploader but not their firm, so a colleague's upload is news to the firm.
  const actor = metadata.actor.kind === 'user' ? metadata.actor.userId : null;
  const others = subject.ownerIds.filter((id) => id !== actor);
  switch (event.type) {
    case 'DealStatusChanged': {
      if (event.data.status !== 'cancelled' && event.data.status !== 'completed') return [];
      const failed = event.data.status === 'cancelled';
      return subject.ownerIds.map((firmId) => ({
        firmId,
        kind: 'dealUpdates',
        type: 'deal',
        title: failed ? 'Deal failed' : 'Deal completed',
        message: failed ? `${capitalise(subject.title)} was cancelled.` : `${capitalise(subject.title)} has completed.`,
        priority: failed ? 'high' : 'medium',
        link: '/deals',
      }));
    }
    case 'DocumentUploaded':
      return others.map((firmId) => ({
        firmId,
        kind: 'dealUpdates',
        type: 'deal',
        title: 'Document uploaded',
        // Not the uploader's name: a name is personal data, and this text stays with the others after the
        // uploader deletes their account. The Documents screen names them while their account exists.
        message: `${event.data.name} was uploaded to one of your deals.`,
        priority: 'low',
        link: '/documents',
      }));
    case 'DocumentStatusChanged':
      if (event.data.status !== 'rejected') return [];
      return subject.ownerIds.map((firmId) => ({
        firmId,
        kind: 'dealUpdates',
        type: 'deal',
        title: 'Document rejected',
        message: `${subject.title} was rejected${firmId === subject.uploaderId ? '; upload a corrected copy' : ''}.`,
        priority: 'high',
        link: '/documents',
      }));
    default:
      return [];
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
