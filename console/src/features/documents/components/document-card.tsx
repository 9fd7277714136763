import { Button, ButtonGroup, Card, H2, Intent, Tag } from '@blueprintjs/core';
import { formatBytes, type DocumentStatus, type DocumentView } from '@pf/events';
import { shortDate } from '../../../components/figure-cards';
import { WritersOnly } from '../../../components/writers-only';

const STATUS_INTENT: Record<DocumentStatus, Intent> = { approved: Intent.SUCCESS, pending: Intent.WARNING, rejected: Intent.DANGER };

interface Props {
  document: DocumentView;
  onView: () => void;
  onDownload: () => void;
  onShare: () => void;
  onReview: (status: DocumentStatus) => void;
}

export function DocumentCard({ document, onView, onDownload, onShare, onReview }: Props) {
  return (
    <Card className="pf-document-card" data-testid="document-card">
      <H2 className="pf-h5 pf-card-title">{document.name}</H2>
      <div className="pf-tags">
        <Tag minimal>{document.type}</Tag>
        <Tag minimal intent={STATUS_INTENT[document.status]} data-testid="document-status">
          {document.status}
        </Tag>
      </div>
      <p className="pf-muted pf-small">
        {formatBytes(document.size)} · {document.uploadedBy} · {shortDate(document.uploadDate)}
        <br />
        {document.dealAddress || 'Deal address not yet given'}
        <br />
        <span data-testid="download-count">
          {document.downloadCount} {document.downloadCount === 1 ? 'download' : 'downloads'}
        </span>
      </p>
      <ButtonGroup className="pf-card-actions">
        <Button icon="eye-open" text="View" onClick={onView} />
        <Button icon="download" text="Download" onClick={onDownload} />
        {/* A link for someone outside the firm is a write (an auditor reads, shares nothing); View and Download are reads. */}
        <WritersOnly>
          <Button icon="share" text="Share" onClick={onShare} />
        </WritersOnly>
      </ButtonGroup>
      {document.status === 'pending' ? (
        <WritersOnly>
          <ButtonGroup className="pf-card-actions pf-section">
            <Button intent={Intent.SUCCESS} variant="outlined" text="Approve" onClick={() => onReview('approved')} />
            <Button intent={Intent.DANGER} variant="outlined" text="Reject" onClick={() => onReview('rejected')} />
          </ButtonGroup>
        </WritersOnly>
      ) : null}
    </Card>
  );
}
