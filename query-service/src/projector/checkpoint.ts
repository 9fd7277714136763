export { lockCheckpoint, loadCheckpoint as readCheckpoint, saveCheckpoint as storeCheckpoint } from '@pf/infra';

/** The read models' row in the shared checkpoints table. */
export const READ_MODELS_PROJECTION = 'projection:read-models';
