import type { ConversationOutcome, ConversationView } from '@pf/events';

const OUTCOME_WORDS: Record<ConversationOutcome, string> = {
  agreed: 'Completed: terms agreed',
  no_agreement: 'Completed: no agreement',
  stopped: 'Completed: stopped',
};

/** A conversation's status in words, from its own status and outcome (never "Active" once it has ended). */
export const statusWords = (conversation: Pick<ConversationView, 'status' | 'outcome'>) =>
  conversation.status === 'active' ? 'Active conversation' : conversation.outcome ? OUTCOME_WORDS[conversation.outcome] : 'Completed';
