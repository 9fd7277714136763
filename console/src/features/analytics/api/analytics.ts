import { ANALYTICS_PERIOD_DAYS, analyticsReportView, dailyAnalyticsView, type AnalyticsPeriod } from '@pf/events';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const getAnalyticsReportQueryOptions = (period: AnalyticsPeriod) =>
  queryOptions({
    queryKey: [...queryKeys.view('analytics'), 'report', period],
    queryFn: () => api.get(`/api/analytics/report?period=${period}`, analyticsReportView),
    placeholderData: keepPreviousData,
  });

export function useAnalyticsReport(period: AnalyticsPeriod) {
  return useQuery(getAnalyticsReportQueryOptions(period));
}

/** Events per type per day (the daily analytics consumer), for the period's days: the platform's activity. */
const getDailyAnalyticsQueryOptions = (period: AnalyticsPeriod) =>
  queryOptions({
    queryKey: [...queryKeys.view('analytics'), 'daily', period],
    queryFn: () => api.get(`/api/analytics/daily?days=${ANALYTICS_PERIOD_DAYS[period]}`, dailyAnalyticsView),
    placeholderData: keepPreviousData,
  });

export function useDailyAnalytics(period: AnalyticsPeriod) {
  return useQuery(getDailyAnalyticsQueryOptions(period));
}
