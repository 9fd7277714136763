import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const confPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../infra/proxy/nginx.conf');

/** The nginx binary, or null where it is not installed (CI installs nginx-light). */
export const NGINX = ['/usr/sbin/nginx', 'nginx'].find((binary) => !spawnSync(binary, ['-v']).error) ?? null;

export interface Nginx {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The deployment's own proxy configuration (infra/proxy/nginx.conf) run by a real nginx with two worker processes,
 * as in production, each service name pointed at a local port: only the listen address, the upstream addresses
 * and the console's directory are changed.
 */
export async function startNginx(port: number, upstreams: Record<string, number>): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is not installed');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-faults-nginx-'));
  await chmod(dir, 0o755);
  let conf = await readFile(confPath, 'utf8');
  for (const [name, upstreamPort] of Object.entries(upstreams)) {
    if (!conf.includes(`server ${name}:3000`)) throw new Error(`nginx.conf names no upstream ${name}`);
    conf = conf.replace(`server ${name}:3000`, `server 127.0.0.1:${upstreamPort}`);
  }
  const html = path.join(dir, 'html');
  await mkdir(html, { recursive: true });
  await writeFile(path.join(html, 'index.html'), '<!doctype html><title>console</title>');
  conf = conf.replace('listen 80;', `listen 127.0.0.1:${port};`).replace('root /usr/share/nginx/html;', `root ${html};`);
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `daemon off; worker_processes 2; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
     events {}
     http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
            fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
            ${conf} }`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (
    !(await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
      throw new Error(`nginx did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
