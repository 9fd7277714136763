import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * Child process: the naive baselines. GET /bare/agents answers the same JSON as GET /api/agents from
 * memory; POST /crud/items inserts one row in one transaction and GET /crud/items/:id selects it, on
 * the same database and with the same pool size as the product (20).
 */
const agents = JSON.parse(await readFile(process.env.AGENTS_JSON_FILE!, 'utf8')) as unknown[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
await pool.query(`create table if not exists bench_items (
  id bigserial primary key, owner_id text not null, name text not null, payload jsonb not null, created_at timestamptz not null default now())`);

const app = Fastify({ logger: false });
app.get('/bare/agents', async () => agents);
app.post<{ Body: { ownerId: string; name: string; payload: unknown } }>('/crud/items', async (request, reply) => {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { ownerId, name, payload } = request.body;
    const inserted = await client.query<{ id: string }>(
      'insert into bench_items (owner_id, name, payload) values ($1, $2, $3) returning id',
      [ownerId, name, JSON.stringify(payload)],
    );
    await client.query('commit');
    return reply.status(201).send({ id: Number(inserted.rows[0]!.id) });
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
});
app.get<{ Params: { id: string } }>('/crud/items/:id', async (request, reply) => {
  const found = await pool.query('select id, owner_id, name, payload, created_at from bench_items where id = $1', [request.params.id]);
  if (!found.rows[0]) return reply.status(404).send({ message: 'not found' });
  return found.rows[0];
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
// The benchmark that started it has gone (it failed part way): nothing of it is left running.
process.once('disconnect', () => process.exit(1));
process.on('message', (message) => {
  if (message === 'close')
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
});
