import net from 'node:net';

/**
 * Tests only: a TCP pass-through in front of a real PostgreSQL server that a test can shut, as an outage looks to
 * the node (every connection dropped, new ones refused), and open again. `shutAfter(pattern)` shuts it the moment
 * a client sends a message whose bytes contain `pattern` (the SQL of a query in the wire protocol), without
 * passing that message on, or passes it on first when `passOn` is set: an outage at a chosen step of a command.
 */
export interface DatabaseGate {
  /** The server's URL with the gate in the way. */
  readonly url: string;
  shut(): void;
  open(): void;
  shutAfter(pattern: string, options?: { passOn?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function startDatabaseGate(databaseUrl: string): Promise<DatabaseGate> {
  const target = new URL(databaseUrl);
  const socketDir = target.searchParams.get('host');
  const port = Number(target.port || 5432);
  const connectUpstream = () => (socketDir ? net.connect({ path: `${socketDir}/.s.PGSQL.${port}` }) : net.connect(port, target.hostname));
  const sockets = new Set<net.Socket>();
  let isOpen = true;
  let trigger: { pattern: string; passOn: boolean; fired: () => void } | null = null;

  const shut = () => {
    isOpen = false;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const server = net.createServer((client) => {
    if (!isOpen) {
      client.destroy();
      return;
    }
    const upstream = connectUpstream();
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (data: Buffer) => {
      const armed = trigger;
      if (armed && data.includes(armed.pattern)) {
        trigger = null;
        if (armed.passOn) {
          // Passed on whole, then the connection ends: the server runs what it got, its answer is lost.
          upstream.end(data, () => {
            shut();
            armed.fired();
          });
          return;
        }
        shut();
        armed.fired();
        return;
      }
      upstream.write(data);
    });
    upstream.on('data', (data: Buffer) => client.write(data));
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: gatePort } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(gatePort);
  url.searchParams.delete('host');
  return {
    url: url.toString(),
    shut,
    open: () => {
      isOpen = true;
    },
    shutAfter: (pattern, options = {}) =>
      new Promise<void>((resolve) => {
        trigger = { pattern, passOn: options.passOn ?? false, fired: resolve };
      }),
    close: async () => {
      shut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
