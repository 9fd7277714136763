import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * An S3-compatible object store for tests: s3rver, a server of the S3 API that keeps objects in a folder, run in a
 * child process of its own. No cloud store is reachable from this machine; the product talks to this one with the
 * AWS SDK exactly as it would to AWS S3, MinIO or Ceph. s3rver signs its list continuation tokens with DES, which
 * Node's OpenSSL 3 offers only with --openssl-legacy-provider, hence the process of its own.
 */
export async function startS3Server(directory: string, bucket: string): Promise<{ endpoint: string; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', path.join(import.meta.dirname, 's3-server-main.mjs'), directory, bucket],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before it listened`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
