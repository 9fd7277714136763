import type { ReadModel } from '../../projection-kit/read-model';
import { projectMatchesFound } from './projection';
import { matchesFoundMigrations } from './schema';

/** Every match the matcher found (MatchFound, as recorded) and the owners taking part in each, which the stats count. */
export const matchesFoundReadModel: ReadModel = {
  name: 'matches-found',
  tables: ['rm_matches', 'rm_match_parties'],
  migrations: matchesFoundMigrations,
  reads: ['agents'],
  project: projectMatchesFound,
};
