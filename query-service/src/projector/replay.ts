import type { Migration } from '@pf/infra';
import { READ_MODELS_PROJECTION } from './checkpoint';

/**
 * The shape of the projector's read models. Bump it whenever what they hold for events already stored changes
 * (a new read model, a new column filled from old events, a fold that now reads an event differently): the
 * migration below then empties their tables and moves the projector's checkpoint back to the start, once per
 * database, so the projector replays every event into them as it starts. An upgraded database fills its new
 * screens by itself instead of showing them empty until someone runs `npm run rebuild`.
 *
 * 2: the boards of Deals & Transactions, Documents and Matching & Leads, notifications and conversation
 * status, and the lead and match boards folded on the shared views.
 * 3: the event feed's index of streams by firm (docs/event-feed.md).
 * 4: agents say whether Seed Demo Data made them (`rm_agents.is_demo`).
 * 5: the people behind each stream of the event feed's index (docs/decisions/hash-chain.md "Erasure").
 * 6: deals keep the agreed product and the broker's procuration fee (docs/behaviour/deals.md).
 */
const READ_MODELS_SHAPE = 6;

export function replayReadModelsMigration(tables: readonly string[]): Migration {
  return {
    name: `query-service/read-models/replay-${READ_MODELS_SHAPE}`,
    sql: `
      truncate ${tables.join(', ')};
      delete from checkpoints where name = '${READ_MODELS_PROJECTION}';
    `,
  };
}
