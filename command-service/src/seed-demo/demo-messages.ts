import type { Participant } from '@pf/events';

/**
 * What Add Demo Messages adds to a demo conversation (docs/behaviour/conversations.md): an exchange about the
 * paperwork, in the parties' own voices, that states no terms (so it is never read as an offer and changes nothing
 * the agents negotiate). Each line goes to the first participant of its type; a line whose type is absent is skipped.
 */
const EXCHANGE: readonly { from: Participant['type']; content: string }[] = [
  { from: 'borrower', content: 'Before we go further, could you tell me which documents you will need from me?' },
  {
    from: 'lender',
    content: 'Two recent payslips, three months of bank statements and proof of your deposit; we would also instruct a valuation.',
  },
  { from: 'broker', content: 'I can gather those and send them across together this week.' },
  { from: 'borrower', content: 'Thank you. How soon could the valuation be arranged?' },
  { from: 'lender', content: 'Usually within five working days of a full application.' },
];

/** The exchange for these participants, each line with the agent that says it. Pure. */
export function demoExchange(participants: readonly Participant[]): { agentId: number; content: string }[] {
  return EXCHANGE.flatMap(({ from, content }) => {
    const speaker = participants.find((participant) => participant.type === from);
    return speaker ? [{ agentId: speaker.agentId, content }] : [];
  });
}
