import { marketView, type MarketPeriod, type MarketRegion } from '@pf/events';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const getMarketQueryOptions = (region: MarketRegion, period: MarketPeriod) =>
  queryOptions({
    queryKey: [...queryKeys.view('market'), region, period],
    queryFn: () => api.get(`/api/market?region=${region}&period=${period}`, marketView),
    placeholderData: keepPreviousData,
  });

export function useMarket(region: MarketRegion, period: MarketPeriod) {
  return useQuery(getMarketQueryOptions(region, period));
}
