import { DealsPage } from '../../features/deals/components/deals-page';

export default DealsPage;
