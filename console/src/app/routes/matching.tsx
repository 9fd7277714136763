import { AgentFormDialog } from '../../features/agents/components/agent-form-dialog';
import { MatchingPage } from '../../features/matching/components/matching-page';

export default function Matching() {
  return <MatchingPage AddLeadDialog={AgentFormDialog} />;
}
