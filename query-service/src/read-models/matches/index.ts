import { documentReadModel } from '../../projection-kit/json-rows-projection';
import { matchesProjection } from './evolve';

/** Matching & Leads, Active Matches tab: one row per match, following its conversation and deal. */
export const matchesReadModel = documentReadModel(matchesProjection, 'query-service/013-match-board');
export { matchReadRoutes } from './routes';
