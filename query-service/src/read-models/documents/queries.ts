import type pg from 'pg';
import {
  ILLUSTRATION_UPLOADER_ID,
  ILLUSTRATION_UPLOADER_NAME,
  PAGE_LIMIT_DEFAULT,
  type DocumentPage,
  type DocumentPageQuery,
  type DocumentStatsView,
  type DocumentView,
} from '@pf/events';
import { AccountStore } from '@pf/infra';
import { containsPattern, readBoardPage } from '../../projection-kit/paging';
import type { DocumentDoc } from './evolve';

/** What a document shows for an uploader whose account has been deleted (or who is not known). */
const DELETED_UPLOADER = 'Deleted user';

/**
 * Documents as the firm is shown them: each with its deal's address as it stands now and its uploader's name
 * as their account gives it now (personal data is not kept in the events or the row).
 */
interface DocumentRow {
  doc: DocumentDoc;
  address: string | null;
}

async function documentViews(pool: pg.Pool, docs: readonly DocumentRow[]): Promise<DocumentView[]> {
  const uploaders = [...new Set(docs.flatMap(({ doc }) => (doc.uploaderId ? [doc.uploaderId] : [])))];
  const names = await new AccountStore(pool).displayNames(uploaders);
  return docs.map(({ doc, address }) => {
    const { owners: _owners, uploaderId, ...view } = doc;
    // Rows projected before uploaders were kept by id carried the name; they are rebuilt from the events.
    const legacy = (doc as { uploadedBy?: string }).uploadedBy;
    const uploadedBy =
      uploaderId === ILLUSTRATION_UPLOADER_ID
        ? ILLUSTRATION_UPLOADER_NAME
        : ((uploaderId && names.get(uploaderId)) ?? legacy ?? DELETED_UPLOADER);
    return { ...view, uploadedBy, dealAddress: address ?? '' };
  });
}

const WITH_ADDRESS = `rm_document_board b left join rm_deal_board deal on deal.id = b.doc->>'dealId'`;

/** The firm's documents, newest first. */
export async function listDocuments(pool: pg.Pool, firmId: string): Promise<DocumentView[]> {
  const result = await pool.query<DocumentRow>(
    `select b.doc, deal.doc->>'propertyAddress' as address from ${WITH_ADDRESS}
     where b.owners @> array[$1]::text[]
     order by b.doc->>'uploadDate' desc, b.id`,
    [firmId],
  );
  return documentViews(pool, result.rows);
}

/**
 * One page of the firm's documents in the list's order (newest first), searched by name or their deal's
 * address (any part, any case) and filtered by type on the server (events/src/paging.ts).
 */
export async function pageDocuments(pool: pg.Pool, firmId: string, query: DocumentPageQuery): Promise<DocumentPage> {
  const page = await readBoardPage<DocumentRow>(
    pool,
    {
      columns: "b.doc, deal.doc->>'propertyAddress' as address",
      from: WITH_ADDRESS,
      where: `b.owners @> array[$1]::text[]
        and ($2::text is null or b.doc->>'name' ilike $2 or coalesce(deal.doc->>'propertyAddress', '') ilike $2)
        and ($3::text is null or b.doc->>'type' = $3)`,
      values: [firmId, query.q ? containsPattern(query.q) : null, query.type ?? null],
      sort: "b.doc->>'uploadDate'",
      sortType: 'text',
      tie: 'b.id',
    },
    query.cursor,
    query.limit ?? PAGE_LIMIT_DEFAULT,
  );
  return { items: await documentViews(pool, page.rows), nextCursor: page.nextCursor, total: page.total };
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
