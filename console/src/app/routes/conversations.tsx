import { ConversationsPage } from '../../features/conversations/components/conversations-page';

export default ConversationsPage;
