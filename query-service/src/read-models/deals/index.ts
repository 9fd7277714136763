import { documentReadModel } from '../../projection-kit/json-rows-projection';
import { dealsProjection } from './evolve';

/** Deals & Transactions: one row per deal, from its own stream (opened from agreed terms or by New Deal). */
export const dealsReadModel = documentReadModel(dealsProjection, 'query-service/010-deal-board');
export { dealReadRoutes } from './routes';
