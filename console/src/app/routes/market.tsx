import { MarketPage } from '../../features/market/components/market-page';

export default function MarketRoute() {
  return <MarketPage />;
}
