import { documentReadModel } from '../../projection-kit/json-rows-projection';
import { documentsProjection } from './evolve';

/** Documents: one row per uploaded document (the bytes stay on the write side). */
export const documentsReadModel = documentReadModel(documentsProjection, 'query-service/011-document-board');
export { documentReadRoutes } from './routes';
