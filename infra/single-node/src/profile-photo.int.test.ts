import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import sharp from 'sharp';
import {
  PHOTO_NOT_AN_IMAGE,
  PHOTO_TOO_LARGE,
  streams,
  type ApiError,
  type ConversationView,
  type CurrentUserView,
  type HistoryPage,
  type PhotoChangedAnswer,
} from '@pf/events';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';

/** A real image of the given format, drawn here (sharp encodes it), `side` pixels square. */
const image = (format: 'png' | 'jpeg' | 'gif', side = 300) =>
  sharp({ create: { width: side, height: side / 2, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();

/** Settings → Profile → Change Photo on the real single node (docs/behaviour/settings.md, "Profile photo"). */
describe('profile photo', () => {
  const node = testSingleNode();
  let db: pg.Pool;
  let alice: ApiClient;
  let bob: ApiClient;
  const idOf = async (client: ApiClient) => (await client.get<CurrentUserView>('/api/auth/user')).body.id;

  beforeAll(async () => {
    db = new pg.Pool({ connectionString: node.database.url, max: 2 });
    alice = await ApiClient.signIn(node.server.url);
    bob = await ApiClient.signIn(node.server.url);
  });
  afterAll(async () => {
    await db?.end();
  });

  const upload = async (client: ApiClient, bytes: Buffer, name: string, type = 'application/octet-stream', field = 'photo') => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
    const response = await fetch(`${node.server.url}/api/auth/photo`, {
      method: 'POST',
      headers: { cookie: client.cookie, origin: node.server.url },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as PhotoChangedAnswer & ApiError };
  };

  it('stores a PNG, JPG or GIF resized to 128 × 128 WebP, records the change without the bytes, and keeps only the current one', async () => {
    for (const format of ['png', 'jpeg', 'gif'] as const) {
      const answer = await upload(alice, await image(format), `me.${format}`);
      expect(answer.status).toBe(201);
      const photo = await fetch(`${node.server.url}/api/auth/photos/${answer.body.photoId}`, { headers: { cookie: alice.cookie } });
      expect(photo.headers.get('content-type')).toBe('image/webp');
      const stored = await sharp(Buffer.from(await photo.arrayBuffer())).metadata();
      expect([stored.format, stored.width, stored.height]).toEqual(['webp', 128, 128]);
      const me = (await alice.get<CurrentUserView>('/api/auth/user')).body;
      expect(me.photoId).toBe(answer.body.photoId);
    }
    const kept = await db.query<{ n: number }>('select count(*)::int as n from profile_photos where user_id = $1', [await idOf(alice)]);
    expect(kept.rows[0]!.n).toBe(1);
    const events = await db.query<{ type: string; data: string }>(
      "select type, data::text as data from events where stream_name = $1 and type = 'ProfilePhotoChanged'",
      [streams.user(await idOf(alice))],
    );
    expect(events.rows).toHaveLength(3);
    for (const row of events.rows) expect(row.data.length).toBeLessThan(400);
  });

  it('refuses by content: a text file named .png, a PNG signature on broken bytes, a PDF, a file over 5 MB, an empty one', async () => {
    const text = await upload(alice, Buffer.from('Just some words, not a picture at all.\n'), 'holiday.png', 'image/png');
    expect([text.status, text.body.message]).toEqual([400, PHOTO_NOT_AN_IMAGE]);
    const png = await image('png');
    const broken = await upload(alice, Buffer.concat([png.subarray(0, 40), Buffer.alloc(2000, 1)]), 'broken.png', 'image/png');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^That file is not a JPG, PNG or GIF image: it could not be read as one/);
    const pdf = await upload(alice, Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), 'me.jpg', 'image/jpeg');
    expect([pdf.status, pdf.body.message]).toEqual([400, PHOTO_NOT_AN_IMAGE]);
    const large = await upload(alice, Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024, 7)]), 'big.png', 'image/png');
    expect([large.status, large.body.message]).toEqual([413, PHOTO_TOO_LARGE]);
    const empty = await upload(alice, Buffer.alloc(0), 'nothing.png');
    expect(empty.status).toBe(400);
    const wrongField = await upload(alice, png, 'me.png', 'image/png', 'file');
    expect([wrongField.status, wrongField.body.message]).toEqual([400, 'photo: send one file, in the field named photo']);
    const notMultipart = await alice.post<ApiError>('/api/auth/photo', { photo: 'x' });
    expect(notMultipart.status).toBe(400);
  });

  it('answers a photo only to someone signed in, 404 for one that is gone, and removes it', async () => {
    const answer = await upload(bob, await image('png'), 'bob.png');
    expect((await fetch(`${node.server.url}/api/auth/photos/${answer.body.photoId}`)).status).toBe(401);
    expect((await fetch(`${node.server.url}/api/auth/photos/not-a-uuid`, { headers: { cookie: bob.cookie } })).status).toBe(400);
    const removed = await bob.delete<PhotoChangedAnswer>('/api/auth/photo');
    expect(removed.body).toEqual({ photoId: null });
    expect((await bob.get<CurrentUserView>('/api/auth/user')).body.photoId).toBeNull();
    expect((await fetch(`${node.server.url}/api/auth/photos/${answer.body.photoId}`, { headers: { cookie: bob.cookie } })).status).toBe(
      404,
    );
  });
});

describe('profile photo beside a person’s messages', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '150' });

  it('names the photo of the person who wrote a message in the conversation’s history', async () => {
    const ada = await ApiClient.signIn(node.server.url);
    await ada.post('/api/seed-demo');
    await expect
      .poll(async () => (await ada.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBeGreaterThan(0);
    const conversation = (await ada.get<ConversationView[]>('/api/conversations')).body[0]!;
    expect((await ada.patch(`/api/conversations/${conversation.id}`, { isManualMode: true })).status).toBe(200);
    expect((await ada.post(`/api/conversations/${conversation.id}/messages`, { content: 'Hello from Ada.' })).status).toBe(201);
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(await image('png'))]), 'ada.png');
    const answer = (await (
      await fetch(`${node.server.url}/api/auth/photo`, {
        method: 'POST',
        headers: { cookie: ada.cookie, origin: node.server.url },
        body: form,
      })
    ).json()) as PhotoChangedAnswer;
    const history = (await ada.get<HistoryPage>(`/api/conversations/${conversation.id}/history`)).body;
    const said = history.events.find((event) => event.type === 'MessageSent' && event.actor.kind === 'person');
    expect(said?.actor).toMatchObject({ kind: 'person', photoId: answer.photoId });
  });
});
