import { documentReadModel } from '../document-projection';
import { leadsProjection } from './evolve';

/** Matching & Leads, Leads tab: one row per agent of a user, with its matches and conversations. */
export const leadsReadModel = documentReadModel(leadsProjection, 'query-service/012-lead-board');
export { leadReadRoutes } from './routes';
