import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSkipped } from '../testing/containers';

const confPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../proxy/nginx.conf');
const nginx = spawnSync('nginx', ['-v']).error ? null : 'nginx';
const upstreams = ['query-service', 'command-service-1', 'command-service-2', 'realtime-gateway-1', 'realtime-gateway-2'];

/** A stand-in for one service copy: says who answered and what it was asked; gateways accept /ws. */
async function stub(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    response.setHeader('x-upstream', name);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ name, method: request.method, url: request.url, headers: request.headers }));
  });
  if (name.startsWith('realtime-gateway')) {
    const sockets = new WebSocketServer({ server, path: '/ws' });
    sockets.on('connection', (socket, request) =>
      socket.send(`${name} ${JSON.stringify({ host: request.headers.host, origin: request.headers.origin })}`),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

if (!nginx) {
  reportSkipped('nginx proxy routing', 'no nginx binary on PATH (apt-get install nginx-light to run it)');
  describe.skip('nginx proxy routing (skipped: no nginx binary)', () => {
    it('runs when nginx is installed', () => undefined);
  });
} else {
  describe('nginx proxy routing (infra/proxy/nginx.conf)', () => {
    let dir: string;
    let base: string;
    let child: ChildProcess;
    const stubs: Server[] = [];

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'pf-proxy-'));
      let conf = await readFile(confPath, 'utf8');
      for (const name of upstreams) {
        const { server, port } = await stub(name);
        stubs.push(server);
        conf = conf.replace(`server ${name}:3000`, `server 127.0.0.1:${port}`);
      }
      const listen = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const html = path.join(dir, 'html');
      await mkdir(path.join(html, 'assets'), { recursive: true });
      await writeFile(path.join(html, 'index.html'), '<!doctype html><title>console</title>');
      await writeFile(path.join(html, 'assets', 'app-1234.js'), 'console.log(1)');
      expect(conf.match(/^\s*zone \w+ 64k;$/gm), 'every upstream shares its state among the workers').toHaveLength(3);
      conf = conf.replace('listen 80;', `listen 127.0.0.1:${listen};`).replace('root /usr/share/nginx/html;', `root ${html};`);
      await writeFile(
        path.join(dir, 'nginx.conf'),
        `daemon off; master_process off; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
         events {}
         http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
                fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
                ${conf} }`,
      );
      await chmod(dir, 0o755);
      child = spawn(nginx, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'inherit' });
      base = `http://127.0.0.1:${listen}`;
      for (let attempt = 0; ; attempt++) {
        const up = await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (attempt > 100 || child.exitCode !== null) throw new Error(`nginx did not start: see ${dir}/error.log`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });

    afterAll(async () => {
      child?.kill('SIGTERM');
      for (const server of stubs) server.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const upstreamOf = async (method: string, url: string) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
      });
      return response.headers.get('x-upstream');
    };

    it('sends GET and HEAD /api/* to the query-service', async () => {
      for (const url of ['/api/agents', '/api/stats?x=1', '/api/conversations/7/messages', '/api/loginx', '/api/authors']) {
        expect(await upstreamOf('GET', url), url).toBe('query-service');
      }
      expect(await upstreamOf('HEAD', '/api/agents')).toBe('query-service');
    });

    it('sends sign-in, sign-out and the signed-in user to the command-service copies (identity writes sessions)', async () => {
      for (const url of ['/api/login', '/api/logout', '/api/auth/user', '/api/login?next=/dashboard']) {
        expect(await upstreamOf('GET', url), url).toMatch(/^command-service-[12]$/);
      }
    });

    it('sends the other /api/* methods to the command-service copies, spreading them', async () => {
      const seen = new Set<string | null>();
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'POST', 'POST']) seen.add(await upstreamOf(method, '/api/agents/1'));
      expect([...seen].sort()).toEqual(['command-service-1', 'command-service-2']);
    });

    it('passes path, query, host, forwarding headers and the trace context through unchanged', async () => {
      // A W3C trace context (docs/operations/observability.md "Traces"): the service's span joins the caller's trace.
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const response = await fetch(`${base}/api/conversations/7/messages?after=3`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', traceparent, tracestate: 'pf=1' },
      });
      const echoed = (await response.json()) as { url: string; headers: Record<string, string> };
      expect(echoed.url).toBe('/api/conversations/7/messages?after=3');
      expect(echoed.headers.host).toBe(new URL(base).host);
      expect(echoed.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(echoed.headers.traceparent).toBe(traceparent);
      expect(echoed.headers.tracestate).toBe('pf=1');
    });

    it("upgrades /ws to a gateway copy, with the browser's host and Origin", async () => {
      const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`, { origin: base });
      const greeting = await new Promise<string>((resolve, reject) => {
        socket.once('message', (data) => resolve((data as Buffer).toString()));
        socket.once('error', reject);
      });
      socket.close();
      expect(greeting).toMatch(/^realtime-gateway-[12] .+$/);
      const { host, origin } = JSON.parse(greeting.split(' ').slice(1).join(' ')) as Record<string, string>;
      expect(host).toBe(new URL(base).host);
      expect(origin).toBe(base);
    });

    it('serves the console with a fallback to index.html for client routes', async () => {
      const route = await fetch(`${base}/conversations/12`);
      expect(route.status).toBe(200);
      expect(await route.text()).toContain('<title>console</title>');
      const asset = await fetch(`${base}/assets/app-1234.js`);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
    });

    it("answers the services' JSON 503 with Retry-After when a service cannot be reached, and passes a service's own errors through", async () => {
      // The query-service stub goes away (last test: the others need it).
      const query = stubs[upstreams.indexOf('query-service')]!;
      query.closeAllConnections();
      await new Promise((resolve) => query.close(resolve));
      const down = await fetch(`${base}/api/agents`);
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toBe('application/json');
      expect(down.headers.get('retry-after')).toBe('2');
      expect(await down.json()).toEqual({ message: 'The service cannot be reached just now; try again in a few seconds' });
      // A service's own answer is untouched (the stubs answer 200 to anything; a 404 from nginx's files stays 404).
      expect(
        (await fetch(`${base}/api/agents`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status,
      ).toBe(200);
    });
  });
}
