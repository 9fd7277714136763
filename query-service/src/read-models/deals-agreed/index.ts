import type { ReadModel } from '../../projection-kit/read-model';
import { projectDealsAgreed } from './projection';
import { dealsAgreedMigrations } from './schema';

/** Every deal agreed (DealAgreed, as recorded: the terms the negotiation ended on). */
export const dealsAgreedReadModel: ReadModel = {
  name: 'deals-agreed',
  tables: ['rm_deals'],
  migrations: dealsAgreedMigrations,
  project: projectDealsAgreed,
};
