import http from 'node:http';
import net from 'node:net';

/**
 * The deployment's routing in one small process, as the nginx proxy does it: /ws upgrades go to the gateway
 * copy, everything else (the console's files and /api) to the node. Bytes are passed through unchanged (Host
 * and Origin included), so the services see the browser's own origin. When the gateway copy is down, an
 * upgrade is cut off, and the browser's socket reconnects as it would behind the real proxy.
 */
export interface Proxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startProxy(httpTarget: { port: number }, upgradeTarget: { port: number }): Promise<Proxy> {
  const upgraded = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    const forwarded = http.request(
      { host: '127.0.0.1', port: httpTarget.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(forwarded);
  });
  server.on('upgrade', (request, client: net.Socket, head: Buffer) => {
    const upstream = net.connect(upgradeTarget.port, '127.0.0.1');
    upgraded.add(client);
    const end = () => {
      upgraded.delete(client);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('connect', () => {
      const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', end);
    upstream.on('close', end);
    client.on('error', end);
    client.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of upgraded) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
