/** The read models' row in infra's checkpoints table. */
export const READ_MODELS_PROJECTION = 'projection:read-models';
