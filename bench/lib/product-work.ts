import type pg from 'pg';
import { dealFirmsOf, ILLUSTRATION_UPLOADER_ID, streams, type EventOf } from '@pf/events';
import {
  DEAL_OPENER_CHECKPOINT,
  deterministicId,
  esisContent,
  ILLUSTRATION_MAKER_CHECKPOINT,
  illustrationDocument,
  renderEsisPdf,
  storeDocumentFile,
} from '@pf/command-service';
import { saveCheckpoint, type EventStore } from '@pf/infra';
import { AFTER_AGREEMENT_EVENTS, type AfterAgreement } from './generate';

/**
 * What the running product writes after an agreement, for a generated history that stands for a store the product
 * wrote (bench:backup's): the deal opener's DealOpened on the deal's stream and the illustration maker's document,
 * with the event and document ids they derive from their cause (command-service/src/deal/deal-opener.ts,
 * command-service/src/illustration/illustration-maker.ts), so that both find the work done at the first start, as
 * they do on a restored store of the product's own. The illustration's PDF is rendered once, for the first deal,
 * and stored again for every other (an ESIS of the real size; rendering one per deal would cost the generation
 * about as much as the illustration maker's own catch-up).
 */
export function productWork(pool: pg.Pool, store: EventStore): AfterAgreement {
  let pdf: Promise<Buffer> | null = null;
  return async (agreed, parties) => {
    const terms = agreed.data;
    const opened: EventOf<'DealOpened'>['data'] = {
      dealId: terms.dealId,
      source: 'negotiation',
      agreedInConversationId: terms.conversationId,
      ...parties,
      propertyAddress: '',
      propertyValue: terms.propertyValue,
      loanAmount: terms.loanAmount,
      ltv: terms.ltv,
      interestRate: terms.interestRate,
      termYears: terms.termYears,
      arrangementFee: terms.arrangementFee,
      targetCompletion: null,
    };
    const openedId = deterministicId(`${agreed.id}:deal-opened:0`);
    const correlationId = agreed.metadata.correlationId;
    await store.append(
      streams.deal(terms.dealId),
      [
        {
          id: openedId,
          type: 'DealOpened',
          data: opened,
          metadata: { actor: { kind: 'system', name: 'deal-opener' }, correlationId, causationId: agreed.id },
        },
      ],
      'no_stream',
    );
    pdf ??= renderEsisPdf(esisContent(opened, new Date()), new Date(), opened.lender.name);
    const documentId = deterministicId(`${openedId}:illustration`);
    const file = await storeDocumentFile(pool, documentId, await pdf, {
      firmId: ILLUSTRATION_UPLOADER_ID,
      quotaBytes: Number.POSITIVE_INFINITY,
    });
    await store.append(
      streams.document(documentId),
      [
        {
          id: deterministicId(`${openedId}:illustration:0`),
          type: 'DocumentUploaded',
          data: illustrationDocument(opened, documentId, file, dealFirmsOf(opened)),
          metadata: { actor: { kind: 'system', name: 'illustration' }, correlationId, causationId: openedId },
        },
      ],
      'no_stream',
    );
    return AFTER_AGREEMENT_EVENTS;
  };
}

/**
 * Once the history is written: the deal opener and the illustration maker at its head, where the product's own stand
 * on a store it wrote (they followed the log as it was written, and did the work above as each agreement came). A
 * rebuild of the read models leaves both where they are; without these, a first start would look through every
 * agreement for work already done (one question per page of them, docs/decisions/bounded-restart.md), which is a
 * start on a store whose checkpoints were lost, not a start after a rebuild.
 */
export async function productFollowersAtHead(pool: pg.Pool, store: EventStore): Promise<void> {
  const head = await store.headPosition();
  for (const name of [DEAL_OPENER_CHECKPOINT, ILLUSTRATION_MAKER_CHECKPOINT]) await saveCheckpoint(pool, name, head);
}
