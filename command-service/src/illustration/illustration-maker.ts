import { createHash } from 'node:crypto';
import { ILLUSTRATION_UPLOADER_ID, START, streams, type EventOf, type Position } from '@pf/events';
import { BACKGROUND_BATCH_INTERVAL_MS, loadCheckpoint, runOf, saveCheckpoint, type RecordedEvent, type ServiceContext } from '@pf/infra';
import { dealDecider } from '../deal/deal';
import { documentDecider } from '../document/document';
import { storeFile } from '../document/file-store';
import { foldEvents, handleCommand } from '../handle-command';
import { deterministicId } from '../process-managers/deterministic-id';
import { esisContent } from './esis-content';
import { renderEsisPdf } from './esis-pdf';

const CHECKPOINT = 'illustration-maker';

/**
 * Every deal's illustration (docs/behaviour/regulated-figures.md, "The illustration of an agreed deal"): for each
 * deal opened from a negotiation's agreement, the ESIS as a PDF, stored and recorded through the same document command as an upload, so it is
 * listed on Documents for the deal's firms, downloadable, and in the hash chain like any document. Idempotent: the
 * document's id derives from the cause, its bytes from the deal and the time it opened, and the decider uploads
 * a document once, so every copy of the command-service may run it and a redelivery adds nothing.
 */
async function illustrateDeal(context: Pick<ServiceContext, 'store' | 'pool'>, cause: RecordedEvent): Promise<void> {
  const opened = cause.data as EventOf<'DealOpened'>['data'];
  // A deal the agents agreed; one entered with New Deal records terms agreed elsewhere, and has none.
  if (opened.source !== 'negotiation') return;
  const deal = foldEvents(dealDecider, await context.store.readStream(streams.deal(opened.dealId)));
  if (deal.status === 'none') return;
  const documentId = deterministicId(`${cause.id}:illustration`);
  const content = esisContent(opened, cause.recordedAt);
  const pdf = await renderEsisPdf(content, cause.recordedAt, opened.lender.name);
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  await storeFile(context.pool, documentId, pdf, sha256);
  try {
    await handleCommand(
      context.store,
      streams.document(documentId),
      documentDecider,
      {
        type: 'UploadDocument',
        document: {
          documentId,
          dealId: opened.dealId,
          name: `Mortgage illustration (ESIS): ${opened.lender.name} to ${opened.borrower.name}.pdf`.slice(0, 200),
          documentType: 'application',
          contentType: 'application/pdf',
          size: pdf.length,
          sha256,
          uploadedBy: { userId: ILLUSTRATION_UPLOADER_ID },
          ownerIds: [...deal.owners],
        },
      },
      { actor: { kind: 'system', name: 'illustration' }, correlationId: cause.metadata.correlationId, causationId: cause.id },
      (index) => deterministicId(`${cause.id}:illustration:${index}`),
    );
  } catch (error) {
    // Another copy recorded it at the same moment: the document stands, with these very bytes. Otherwise the
    // bytes stay (another copy may have recorded them) and the follower retries the same id from its checkpoint.
    if ((error as { statusCode?: number }).statusCode !== 409) throw error;
  }
}

/** The illustration maker as a supervised follower (restarted with backoff from its checkpoint, in /readyz). */
export function startIllustrationMaker(context: ServiceContext): { close(): Promise<void> } {
  let position: Position = START;
  const supervised = context.supervisor.run({
    name: 'illustration maker',
    position: () => position,
    async start() {
      position = await loadCheckpoint(context.pool, CHECKPOINT);
      return runOf((onError) =>
        context.store.subscribe(
          position,
          async (batch) => {
            for (const event of batch) if (event.type === 'DealOpened') await illustrateDeal(context, event);
            const last = batch[batch.length - 1]!.position;
            await saveCheckpoint(context.pool, CHECKPOINT, last);
            position = last;
          },
          { onError, minIntervalMs: BACKGROUND_BATCH_INTERVAL_MS },
        ),
      );
    },
  });
  return { close: () => supervised.stop() };
}
