import { ILLUSTRATION_UPLOADER_ID, START, streams, type EventOf, type Position } from '@pf/events';
import { catchUpOnTypes, loadCheckpoint, runOf, saveCheckpoint, type RecordedEvent, type ServiceContext } from '@pf/infra';
import { dealDecider } from '../deal/deal';
import { documentDecider } from '../document/document';
import { removeFile } from '../document/file-store';
import { storeDocumentFile } from '../document/file-write';
import { foldEvents, handleCommand } from '../handle-command';
import { deterministicId } from '../automation/process-managers/deterministic-id';
import { esisContent } from './esis-content';
import { renderEsisPdf } from './esis-pdf';

/** Where the illustration maker's checkpoint is kept (in `checkpoints`). */
export const ILLUSTRATION_MAKER_CHECKPOINT = 'illustration-maker';
const CHECKPOINT = ILLUSTRATION_MAKER_CHECKPOINT;
const CHECKPOINT_EVERY_MS = 10_000;

/**
 * Every agreed deal's illustration (docs/behaviour/regulated-figures.md, "The illustration of an agreed deal"): for
 * each deal opened from a negotiation's agreement, the ESIS as a PDF, stored and recorded through the same file
 * store and document command as an upload, so it is listed on Documents for the deal's firms, downloadable, and in
 * the hash chain like any document. Idempotent: the
 * document's id derives from the cause, its bytes from the deal and the time it opened, and the decider uploads
 * a document once, so a redelivery adds nothing; one copy of the command-service runs it at a time.
 */
async function illustrateDeal(context: Pick<ServiceContext, 'store' | 'pool'>, cause: RecordedEvent<'DealOpened'>): Promise<void> {
  const opened = cause.data;
  // A deal the agents agreed; one entered with New Deal records terms agreed elsewhere, and has none.
  if (opened.source !== 'negotiation') return;
  const deal = foldEvents(dealDecider, await context.store.readStream(streams.deal(opened.dealId)));
  if (deal.status === 'none') return;
  const documentId = illustrationIdOf(cause);
  if (foldEvents(documentDecider, await context.store.readStream(streams.document(documentId))).status !== 'none') return;
  const content = esisContent(opened, cause.recordedAt);
  const pdf = await renderEsisPdf(content, cause.recordedAt, opened.lender.name);
  // A run that stopped after the file was stored records the file as stored; one that stopped part-way through
  // writing it starts the file again. The platform's own documents count towards no firm's upload quota.
  let file = await storedFile(context.pool, documentId);
  if (!file) {
    await removeFile(context.pool, documentId);
    file = await storeDocumentFile(context.pool, documentId, pdf, {
      firmId: ILLUSTRATION_UPLOADER_ID,
      quotaBytes: Number.POSITIVE_INFINITY,
    });
  }
  try {
    await handleCommand(
      context.store,
      streams.document(documentId),
      documentDecider,
      {
        type: 'UploadDocument',
        document: illustrationDocument(opened, documentId, file, [...deal.owners]),
      },
      { actor: { kind: 'system', name: 'illustration' }, correlationId: cause.metadata.correlationId, causationId: cause.id },
      (index) => deterministicId(`${cause.id}:illustration:${index}`),
    );
  } catch (error) {
    // Recorded meanwhile: the document stands. Otherwise the file stays, and the follower retries from its
    // checkpoint with the same id, recording the file it finds stored.
    if ((error as { statusCode?: number }).statusCode !== 409) throw error;
  }
}

/**
 * The illustrations of a batch's deals opened from a negotiation that have none yet. One question for the whole batch
 * finds the illustrations recorded already (their document ids derive from their cause): a catch-up over a long log
 * pays one query per page of deals, not two stream reads for each (docs/decisions/bounded-restart.md). Resolves with
 * whether the batch held any deal.
 */
async function illustrateDeals(context: Pick<ServiceContext, 'store' | 'pool'>, batch: readonly RecordedEvent[]): Promise<boolean> {
  const opened = batch.filter((event): event is RecordedEvent<'DealOpened'> => event.type === 'DealOpened');
  const agreed = opened.filter((event) => event.data.source === 'negotiation');
  const documentOf = (cause: RecordedEvent<'DealOpened'>) => streams.document(illustrationIdOf(cause));
  const recorded = agreed.length > 0 ? await context.store.streamsWithEvents(agreed.map(documentOf)) : new Set<string>();
  for (const event of agreed) if (!recorded.has(documentOf(event))) await illustrateDeal(context, event);
  return opened.length > 0;
}

/** The illustration's document id, derived from the deal's opening. */
const illustrationIdOf = (cause: RecordedEvent<'DealOpened'>) => deterministicId(`${cause.id}:illustration`);

/**
 * The document an agreed deal's illustration is recorded as: its PDF stored as `file`, uploaded by the platform, for
 * the deal's firms (`ownerIds`). The bench's generated histories record the same (bench/lib/product-work.ts).
 */
export function illustrationDocument(
  opened: EventOf<'DealOpened'>['data'],
  documentId: string,
  file: { size: number; sha256: string },
  ownerIds: string[],
): EventOf<'DocumentUploaded'>['data'] {
  return {
    documentId,
    dealId: opened.dealId,
    name: `Mortgage illustration (ESIS): ${opened.lender.name} to ${opened.borrower.name}.pdf`.slice(0, 200),
    documentType: 'application',
    contentType: 'application/pdf',
    size: file.size,
    sha256: file.sha256,
    uploadedBy: { userId: ILLUSTRATION_UPLOADER_ID },
    ownerIds,
  };
}

/** A file whose row is written (it counts): its checksum and size, as the event records them. */
async function storedFile(pool: ServiceContext['pool'], documentId: string): Promise<{ sha256: string; size: number } | null> {
  const found = await pool.query<{ sha256: string; size: string }>('select sha256, size from document_files where document_id = $1', [
    documentId,
  ]);
  const row = found.rows[0];
  return row ? { sha256: row.sha256, size: Number(row.size) } : null;
}

/** The illustration maker as a supervised follower (restarted with backoff from its checkpoint, in /readyz). */
export function startIllustrationMaker(context: ServiceContext): { close(): Promise<void> } {
  let position: Position = START;
  const supervised = context.supervisor.run({
    name: 'illustration maker',
    // One copy at a time: two writing the same file's chunks at once would refuse each other.
    leadership: 'illustration-maker',
    position: () => position,
    async start() {
      // The deals opened since the checkpoint first, read by type (docs/decisions/bounded-restart.md).
      position = await catchUpOnTypes({
        store: context.store,
        from: await loadCheckpoint(context.pool, CHECKPOINT),
        types: ['DealOpened'],
        handle: (events) => illustrateDeals(context, events),
        save: (at) => saveCheckpoint(context.pool, CHECKPOINT, at),
        reached: (at) => (position = at),
      });
      let savedAt = Date.now();
      return runOf((onError) =>
        context.store.subscribe(
          position,
          async (batch) => {
            const made = await illustrateDeals(context, batch);
            // Every batch as it comes (no batching delay: a deal's illustration follows it at once, and whoever waits
            // for the followers to settle waits no longer), the checkpoint saved only after work or now and then: a
            // restart from an older one finds each illustration already recorded.
            const last = batch[batch.length - 1]!.position;
            if (made || Date.now() - savedAt >= CHECKPOINT_EVERY_MS) {
              await saveCheckpoint(context.pool, CHECKPOINT, last);
              savedAt = Date.now();
            }
            position = last;
          },
          { onError },
        ),
      );
    },
  });
  return { close: () => supervised.stop() };
}
