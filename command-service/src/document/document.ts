import type { DocumentStatus, EventOf } from '@pf/events';
import { NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';

export type DocumentEvent = EventOf<'DocumentUploaded' | 'DocumentStatusChanged' | 'DocumentDownloaded'>;
type Uploaded = EventOf<'DocumentUploaded'>['data'];

export type DocumentState =
  | { status: 'none' }
  | {
      status: DocumentStatus;
      documentId: string;
      owners: readonly string[];
      name: string;
      contentType: Uploaded['contentType'];
      downloads: number;
    };

export type DocumentCommand =
  | { type: 'UploadDocument'; document: Uploaded }
  | { type: 'ReviewDocument'; documentId: string; firmId: string; status: DocumentStatus }
  | { type: 'RecordDownload'; documentId: string; firmId: string };

type Existing = Exclude<DocumentState, { status: 'none' }>;

/** A document is visible to the firms of its deal's agents (visibility.ts); to anyone else it does not exist (404). */
export function visibleTo(state: DocumentState, documentId: string, firmId: string): Existing {
  if (state.status === 'none' || !state.owners.includes(firmId)) throw new NotFound(`Document ${documentId} not found`);
  return state;
}

function decide(command: DocumentCommand, state: DocumentState): DocumentEvent[] {
  switch (command.type) {
    case 'UploadDocument':
      return state.status === 'none' ? [{ type: 'DocumentUploaded', data: command.document }] : [];
    case 'ReviewDocument': {
      const document = visibleTo(state, command.documentId, command.firmId);
      if (document.status === command.status) return [];
      return [{ type: 'DocumentStatusChanged', data: { documentId: command.documentId, status: command.status, from: document.status } }];
    }
    case 'RecordDownload':
      visibleTo(state, command.documentId, command.firmId);
      return [{ type: 'DocumentDownloaded', data: { documentId: command.documentId } }];
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: DocumentState, event: DocumentEvent): DocumentState {
  switch (event.type) {
    case 'DocumentUploaded': {
      const { documentId, ownerIds, name, contentType } = event.data;
      return { status: 'pending', documentId, owners: ownerIds, name, contentType, downloads: 0 };
    }
    case 'DocumentStatusChanged':
      return state.status === 'none' ? state : { ...state, status: event.data.status };
    case 'DocumentDownloaded':
      return state.status === 'none' ? state : { ...state, downloads: state.downloads + 1 };
    default:
      return state;
  }
}

export const documentDecider: Decider<DocumentCommand, DocumentState, DocumentEvent> = {
  initialState: { status: 'none' },
  decide,
  evolve,
};
