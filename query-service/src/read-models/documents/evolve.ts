import type { DocumentView, DomainEvent } from '@pf/events';
import type { DocumentProjection } from '../../projection-kit/document-projection';
import { withoutOwner } from '../../projection-kit/json-rows-projection';

/**
 * A document's row; its deal's address is read beside it from the deals read model, so it stays current, and
 * so is the uploader's name (personal data: from the account, at read time; none once the account is deleted).
 */
export interface DocumentDoc extends Omit<DocumentView, 'dealAddress' | 'uploadedBy'> {
  uploaderId: string | null;
  owners: string[];
}

function evolveDocument(doc: DocumentDoc | null, event: DomainEvent, at: string): DocumentDoc | null {
  switch (event.type) {
    case 'DocumentUploaded': {
      if (doc) return doc;
      const d = event.data;
      return {
        id: d.documentId,
        name: d.name,
        type: d.documentType,
        contentType: d.contentType,
        size: d.size,
        sha256: d.sha256,
        uploaderId: d.uploadedBy.userId,
        uploadDate: at,
        dealId: d.dealId,
        status: 'pending',
        downloadCount: 0,
        owners: d.ownerIds,
      };
    }
    case 'DocumentStatusChanged':
      return doc && { ...doc, status: event.data.status };
    case 'DocumentDownloaded':
      return doc && { ...doc, downloadCount: doc.downloadCount + 1 };
    case 'AccountDeleted': {
      // The person leaves: no longer an owner (a document nobody else sees goes), and not named as its uploader.
      const kept = withoutOwner(doc, event.data.userId);
      return kept && { ...kept, uploaderId: kept.uploaderId === event.data.userId ? null : kept.uploaderId };
    }
    default:
      return doc;
  }
}

export const documentsProjection: DocumentProjection<DocumentDoc> = {
  name: 'documents',
  table: 'rm_document_board',
  lookupFields: [],
  route: (event) =>
    event.type === 'DocumentUploaded' || event.type === 'DocumentStatusChanged' || event.type === 'DocumentDownloaded'
      ? [{ ids: [event.data.documentId] }]
      : event.type === 'AccountDeleted'
        ? [{ owner: event.data.userId }]
        : [],
  evolve: evolveDocument,
  owners: (doc) => doc.owners,
};
