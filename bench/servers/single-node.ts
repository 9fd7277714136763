import { startSingleNode } from '@pf/single-node';

/** Child process: the product's single node, so the load generator does not share its event loop. */
const server = await startSingleNode(process.env);
// Measured once every follower of the stream has caught up, so start-up work does not weigh on the figures.
await server.caughtUp;
process.send?.({ url: server.url });
// The benchmark that started it has gone (it failed part way): nothing of it is left running.
process.once('disconnect', () => process.exit(1));
process.on('message', (message) => {
  if (message === 'close') void server.close().then(() => process.exit(0));
});
