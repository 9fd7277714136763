import { SystemPage } from '../../features/system/components/system-page';

export default SystemPage;
