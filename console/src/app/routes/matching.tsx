import { MatchingPage } from '../../features/matching/components/matching-page';

export default MatchingPage;
