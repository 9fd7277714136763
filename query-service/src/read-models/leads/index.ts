import { documentReadModel } from '../../projection-kit/json-rows-projection';
import { leadsProjection } from './evolve';

/** Matching & Leads, Leads tab: one row per agent of a user, with its matches and conversations. */
const board = documentReadModel(leadsProjection, 'query-service/012-lead-board');
export const leadsReadModel = {
  ...board,
  migrations: [
    ...board.migrations,
    {
      // Firms (docs/decisions/firms-and-visibility.md): a lead is its firm's; one from before firms is its owner's
      // firm of one (firmOf), so the row gains the firm the fold now gives it and a rebuild matches.
      name: 'query-service/leads/002-firms',
      sql: `update rm_lead_board set doc = doc || jsonb_build_object('firmId', doc->>'ownerId') where not doc ? 'firmId'`,
    },
  ],
};
export { leadReadRoutes } from './routes';
