// An S3-compatible server for tests (s3rver), run in its own process: s3rver makes its list continuation tokens with
// DES, which Node's OpenSSL 3 offers only with --openssl-legacy-provider (see s3-server.ts).
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
server.run().then(({ port }) => process.stdout.write(`listening ${port}\n`));
process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));
