import path from 'node:path';
import v8 from 'node:v8';
import { startSingleNode } from '@pf/single-node';

/**
 * Child process for the soak: the product's single node, answering "memory" over IPC with its heap and RSS
 * after a full garbage collection (run with --expose-gc), so that samples compare live memory, not garbage.
 * With SOAK_HEAP_SNAPSHOTS=<dir> set (only then) it also answers "snapshot:<name>" by writing a heap snapshot
 * into that directory after a full GC, so two points of a soak can be compared object by object.
 */
const server = await startSingleNode(process.env);
await server.caughtUp;
process.send?.({ url: server.url });
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const snapshotDir = process.env.SOAK_HEAP_SNAPSHOTS;
// The benchmark that started it has gone (it failed part way): nothing of it is left running.
process.once('disconnect', () => process.exit(1));
process.on('message', (message) => {
  if (message === 'memory') {
    gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ memory: { heapUsed, rss } });
  }
  if (snapshotDir && typeof message === 'string' && message.startsWith('snapshot:')) {
    gc();
    const file = v8.writeHeapSnapshot(path.join(snapshotDir, `${path.basename(message.slice('snapshot:'.length))}.heapsnapshot`));
    process.send?.({ snapshot: file });
  }
  if (message === 'close') void server.close().then(() => process.exit(0));
});
