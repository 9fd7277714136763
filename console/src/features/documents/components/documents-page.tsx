import { Button, Callout, Card, Dialog, DialogBody, InputGroup, Intent } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { WritersOnly } from '../../../components/writers-only';
import { DOCUMENT_TYPES, formatBytes, type DocumentView } from '@pf/events';
import { useState } from 'react';
import { FigureCards } from '../../../components/figure-cards';
import { PageHeader } from '../../../components/page-header';
import { PagedList } from '../../../components/paged-list';
import { SearchFilterBar } from '../../../components/search-filter-bar';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { useSearchedPages } from '../../../lib/use-cursor-pages';
import {
  documentPageKey,
  fetchDocumentPage,
  previewLink,
  shareLink,
  useDocumentStats,
  useDownload,
  useHasDeals,
  useReview,
} from '../api/documents';
import { DocumentCard } from './document-card';
import { UploadDialog } from './upload-dialog';
import { formatDateTime } from '../../../lib/display';

/**
 * Documents (docs/behaviour/documents.md): uploads linked to deals, reviewed, previewed, downloaded (counted) and
 * shared by signed links; one page at a time, searched and filtered by type on the server.
 */
export function DocumentsPage() {
  const { pages, bar, filtered } = useSearchedPages(documentPageKey, fetchDocumentPage);
  const stats = useDocumentStats();
  const hasDeals = useHasDeals();
  const download = useDownload();
  const review = useReview();
  const [uploading, setUploading] = useState(false);
  const [preview, setPreview] = useState<{ document: DocumentView; url: string } | null>(null);
  const [shared, setShared] = useState<{ url: string; expiresAt: string } | null>(null);
  const s = stats.data;

  const run = (action: () => Promise<void>) => () => void action().catch((error: Error) => toastError(error.message));
  const view = (document: DocumentView) => run(async () => setPreview({ document, url: (await previewLink(document.id)).url }));
  const save = (document: DocumentView) =>
    run(async () => {
      const link = await download.mutateAsync(document.id);
      const anchor = window.document.createElement('a');
      anchor.href = link.url;
      anchor.download = document.name;
      anchor.click();
    });
  const share = (document: DocumentView) => run(async () => setShared(await shareLink(document.id)));

  return (
    <>
      <PageHeader title="Documents" subtitle="Valuations, applications and the rest of each deal's paperwork">
        <WritersOnly>
          <Button intent={Intent.PRIMARY} icon="upload" text="Upload Document" onClick={() => setUploading(true)} />
        </WritersOnly>
      </PageHeader>
      <FigureCards
        figures={
          s && [
            { key: 'totalDocuments', title: 'Total Documents', icon: 'document', value: String(s.totalDocuments) },
            { key: 'pendingReview', title: 'Pending Review', icon: 'time', value: String(s.pendingReview) },
            { key: 'storage', title: 'Storage Used', icon: 'database', value: formatBytes(s.storageBytes) },
            { key: 'downloads', title: 'Downloads', icon: 'download', value: s.downloads.toLocaleString('en-GB') },
          ]
        }
      />
      <Card className="pf-section">
        <SearchFilterBar
          noun="documents"
          placeholder="Search documents by name or property address..."
          filterLabel="Type filter"
          allLabel="All Types"
          options={DOCUMENT_TYPES}
          {...bar}
        />
      </Card>
      <PagedList
        pages={pages}
        noun="documents"
        filtered={filtered}
        errorTitle="Could not load documents"
        empty={
          <Problem
            className="pf-section"
            icon="document"
            title="No documents yet"
            description={
              hasDeals.data
                ? 'Upload a deal’s valuation, application, financial, legal or insurance papers with Upload Document.'
                : 'Documents belong to deals, and deals appear when your agents agree terms. Once there is a deal, upload its valuation, application or other papers here.'
            }
          />
        }
        noMatch={<Problem className="pf-section" icon="search" title="No documents match" description="Try another search or type." />}
      >
        {(documents) => (
          <div className="pf-grid pf-grid-3 pf-section">
            {documents.map((document) => (
              <DocumentCard
                key={document.id}
                document={document}
                onView={view(document)}
                onDownload={save(document)}
                onShare={share(document)}
                onReview={(status) =>
                  void review.mutateAsync({ id: document.id, status }).then(
                    () => toastSuccess(`Document ${status}`),
                    (error: Error) => toastError(error.message),
                  )
                }
              />
            ))}
          </div>
        )}
      </PagedList>
      <UploadDialog isOpen={uploading} onClose={() => setUploading(false)} />
      <Dialog isOpen={preview !== null} onClose={() => setPreview(null)} title={preview?.document.name} className="pf-preview-dialog">
        <DialogBody>
          {preview?.document.contentType === 'application/pdf' ? (
            <iframe className="pf-preview-frame" src={preview.url} title={preview.document.name} />
          ) : preview ? (
            <img className="pf-preview-image" src={preview.url} alt={preview.document.name} data-testid="document-preview" />
          ) : null}
        </DialogBody>
      </Dialog>
      <Dialog isOpen={shared !== null} onClose={() => setShared(null)} title="Share" className="pf-wide-dialog">
        <DialogBody>
          <p>Anyone with this link can download the document until {shared ? formatDateTime(shared.expiresAt) : ''}.</p>
          <InputGroup readOnly value={shared ? new URL(shared.url, window.location.origin).toString() : ''} data-testid="share-link" />
          <Callout className="pf-section" icon="info-sign">
            The link is signed: changing any part of it stops it working.
          </Callout>
        </DialogBody>
      </Dialog>
    </>
  );
}
