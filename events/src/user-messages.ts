/** The words people read for validation and errors, defined once (docs/behaviour/README.md). */
export const USER_MESSAGES = {
  agentNameRequired: 'Agent name is required',
  agentTypeRequired: 'Please select an agent type',
  agentCreated: 'Agent created successfully',
  agentCreateFailed: 'Failed to create agent',
  agentStatusUpdated: 'Agent status updated successfully',
  agentStatusFailed: 'Failed to update agent status',
  agentUpdated: 'Agent updated successfully',
  agentUpdateFailed: 'Failed to update agent',
  agentDeleted: 'Agent deleted successfully',
  agentDeleteFailed: 'Failed to delete agent',
  /** A write whose answer the network lost, after the console's own retries (docs/decisions/idempotency-keys.md). */
  writeUnanswered:
    'The server could not be reached, so it is not known whether this was done; trying again is safe: it will not be done twice',
  agentDeleteConfirm: 'Are you sure you want to delete this agent?',
  demoDataCreated: 'Demo data created successfully',
  demoDataFailed: 'Failed to create demo data',
  /** Seed Demo Data pressed again: nothing duplicated (docs/behaviour/dashboard.md). */
  demoDataAlreadyThere: 'Your firm already has every demo agent: nothing was added',
  demoMessagesFailed: 'Failed to add demo messages',
  /** Every side of the conversation is held by its operator, so its agents say nothing. */
  demoMessagesNoneSaid: 'No demo message added: every side is held by its operator, so its agent says nothing',
  messageSendFailed: 'Failed to send message',
  manualToggleFailed: 'Failed to toggle manual mode',
  handOverFailed: 'Failed to hand over control',
  modeUpdateFailed: 'Failed to update mode',
  modeUpdatedTitle: 'Mode Updated',
  unauthorised: 'Unauthorized: You are logged out. Logging in again...',
  invalidConversation: 'Invalid Conversation',
  conversationNotFound: 'Conversation not found',
  conversationNotFoundHint: "This conversation may have been deleted or doesn't exist.",
  switchToManualFirst: 'Switch to Manual Mode first to send messages',
  sideHeldElsewhere: 'Your side is controlled from another session; ask for control there, or hand it back there first',
  sideTakenElsewhere: 'You already have control of your side in another session; hand it back there, or ask for control',
  messageEmpty: 'Message is empty',
  messageTooLong: 'Message is at most 4,000 characters',
  conversationIsAutomatic: 'Switch to Manual Mode first to send messages',
  notFound: 'Not found',
} as const;

export const MESSAGE_MAX_LENGTH = 4000;
