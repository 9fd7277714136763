import {
  describeOffer,
  latestOfferOf,
  readOffer,
  type ConversationCommand,
  type ConversationEvent,
  type LoanTerms,
  type Participant,
  type Speaker,
} from '@pf/events';
import { DomainError } from '@pf/infra';
import { commitmentMove } from './commitment-moves';
import { counterpartOf, type ConversationState, type Started } from './state';

type SendMessage = Extract<ConversationCommand, { type: 'SendMessage' }>;
type PersonsMessage = SendMessage & { speaker: Extract<Speaker, { kind: 'user' }>; reading: NonNullable<SendMessage['reading']> };

/**
 * A person's message on a borrower's or lender's side, read as that side's offer in the same decision as the message
 * (docs/decisions/one-commitment-per-need.md, "Operators' offers"): the figures it states (events/src/offers/read-offer.ts), completed
 * from that side's last offer, else the other side's, else the case at list price, and decided as Make offer is
 * (against the book and the borrower's need). The thread's note says how it was read: "Read as an offer: …", "Read as
 * chat: no offer recorded", "Not read as an offer: …", or "Not recorded as an offer: …" with the refusal's reason.
 * The figures typed are recorded exactly; only those not typed are completed. A broker's message is not read.
 */
export function readAsOffer(
  state: ConversationState,
  conversation: Started,
  sender: Participant,
  command: PersonsMessage,
): ConversationEvent[] {
  if (sender.type === 'broker') return [];
  const other = conversation.participants.find((p) => p.type === (sender.type === 'borrower' ? 'lender' : 'borrower'));
  if (!other) return [];
  const { conversationId, reading } = command;
  const note = (content: string): ConversationEvent[] => [
    {
      type: 'MessageSent',
      data: {
        conversationId,
        messageId: reading.noteMessageId,
        fromAgentId: sender.agentId,
        toAgentId: counterpartOf(conversation, sender)?.agentId ?? null,
        content,
        isAutomated: true,
        reading: true,
      },
    },
  ];
  const unclear = (reason: string) => note(`Not read as an offer: ${reason}. Say it again, or use Make offer`);
  const read = readOffer(command.content);
  if (read.kind === 'chat') return note('Read as chat: no offer recorded');
  if (read.kind === 'unclear') return unclear(read.reason);
  const stated = read.terms;
  const base =
    latestOfferOf(conversation.offers, sender.agentId)?.terms ??
    latestOfferOf(conversation.offers, other.agentId)?.terms ??
    reading.listTerms;
  const terms = { ...base, ...stated };
  if (!isComplete(terms)) return unclear('it does not state the loan, the rate, the term and the fee');
  try {
    return commitmentMove(
      {
        type: 'MakeOffer',
        conversationId,
        offerId: reading.offerId,
        speaker: { ...command.speaker, preferredAgentId: sender.agentId },
        terms,
        need: reading.need,
        note: { messageId: reading.noteMessageId, content: `Read as an offer: ${describeOffer(terms)}` },
      },
      state,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return note(`Not recorded as an offer: ${error.message}`);
  }
}

const isComplete = (terms: Partial<LoanTerms>): terms is LoanTerms =>
  terms.loanAmount !== undefined && terms.interestRate !== undefined && terms.termYears !== undefined && terms.arrangementFee !== undefined;
