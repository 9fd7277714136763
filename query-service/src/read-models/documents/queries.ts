import type pg from 'pg';
import type { DocumentStatsView, DocumentView } from '@pf/events';
import { AccountStore } from '@pf/infra';
import type { DocumentDoc } from './evolve';

/** What a document shows for an uploader whose account has been deleted (or who is not known). */
const DELETED_UPLOADER = 'Deleted user';

/**
 * The user's documents, newest first, each with its deal's address as it stands now and its uploader's name
 * as their account gives it now (personal data is not kept in the events or the row).
 */
export async function listDocuments(pool: pg.Pool, userId: string): Promise<DocumentView[]> {
  const result = await pool.query<{ doc: DocumentDoc; address: string | null }>(
    `select d.doc, deal.doc->>'propertyAddress' as address
     from rm_document_board d left join rm_deal_board deal on deal.id = d.doc->>'dealId'
     where d.owners @> array[$1]::text[]
     order by d.doc->>'uploadDate' desc, d.id`,
    [userId],
  );
  const uploaders = [...new Set(result.rows.flatMap(({ doc }) => (doc.uploaderId ? [doc.uploaderId] : [])))];
  const names = await new AccountStore(pool).displayNames(uploaders);
  return result.rows.map(({ doc, address }) => {
    const { owners: _owners, uploaderId, ...view } = doc;
    // Rows projected before uploaders were kept by id carried the name; they are rebuilt from the events.
    const legacy = (doc as { uploadedBy?: string }).uploadedBy;
    const uploadedBy = (uploaderId && names.get(uploaderId)) ?? legacy ?? DELETED_UPLOADER;
    return { ...view, uploadedBy, dealAddress: address ?? '' };
  });
}

/** The four figures: documents, pending review, bytes stored, downloads. */
export async function documentStats(pool: pg.Pool, userId: string): Promise<DocumentStatsView> {
  const result = await pool.query<{ total: number; pending: number; bytes: number; downloads: number }>(
    `select count(*)::int as total,
            count(*) filter (where doc->>'status' = 'pending')::int as pending,
            coalesce(sum((doc->>'size')::bigint), 0)::float8 as bytes,
            coalesce(sum((doc->>'downloadCount')::int), 0)::int as downloads
     from rm_document_board where owners @> array[$1]::text[]`,
    [userId],
  );
  const row = result.rows[0]!;
  return { totalDocuments: row.total, pendingReview: row.pending, storageBytes: row.bytes, downloads: row.downloads };
}
