import { Intent, type IconName } from '@blueprintjs/core';
import { AGENT_TYPES, type AgentType } from '@pf/events';

/** Each agent type's icon and colour, shared by cards, lists and the thread. */
export const AGENT_TYPE_LOOK: Record<AgentType, { icon: IconName; intent: Intent; label: string }> = {
  borrower: { icon: 'home', intent: Intent.PRIMARY, label: 'Borrower' },
  broker: { icon: 'people', intent: Intent.WARNING, label: 'Broker' },
  lender: { icon: 'bank-account', intent: Intent.SUCCESS, label: 'Lender' },
};

/** The type filter of a search bar over agents (My Agents, Leads). */
export const AGENT_TYPE_FILTER = { filterLabel: 'Type filter', allLabel: 'All Types', options: AGENT_TYPES } as const;
