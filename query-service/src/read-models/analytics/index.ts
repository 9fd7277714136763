/**
 * Facts of deals, negotiations, leads, offers and agents' criteria behind Analytics & Reports and Market
 * Intelligence. They are not one of the projector's read models: the analytics consumer of the event stream
 * (Kafka when configured, the event store otherwise) folds them (consumer.ts), and `npm run rebuild` replays
 * them with the same fold.
 */
export { analyticsMigrations as analyticsFactsMigrations } from './schema';
export { projectAnalytics } from './projection';
export { analyticsReportRoutes } from './routes';
export {
  ANALYTICS_FACT_TABLES,
  ANALYTICS_FOLD_INDEXES,
  ANALYTICS_FACTS_CHECKPOINT,
  ANALYTICS_FACTS_CONSUMER,
  analyticsFactsFollower,
} from './consumer';
