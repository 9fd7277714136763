import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { comparePositions, parsePosition, type CreatedApiTokenView } from '@pf/events';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { readFeedPage } from '@pf/single-node/testing/event-feed';
import { testSingleNode } from '@pf/single-node/testing/single-node';
import { loadCheckpoint } from './checkpoint';
import { JobProcess } from './testing/job-process';
import { applyEvent, emptyFunnel, FUNNEL_EVENT_TYPES, type FunnelState } from './funnel';

/** The funnel folded afresh from the feed, up to a position: what a job that never stopped would hold there. */
async function foldFromFeed(url: string, token: string, upTo: string): Promise<FunnelState> {
  const page = await readFeedPage(url, token, `types=${FUNNEL_EVENT_TYPES.join(',')}`);
  const state = emptyFunnel();
  for (const event of page.events) {
    if (comparePositions(parsePosition(event.position), parsePosition(upTo)) <= 0) applyEvent(state, event);
  }
  return state;
}

/**
 * The conversion-funnel job against a real single node (automated agents on, replying after 50 ms): started
 * with a token an admin created, it prints the funnel of the demo data and follows the negotiations; stopped
 * (SIGTERM) or killed (SIGKILL) and started again it resumes from its checkpoint, and its figures equal a fold
 * of the feed up to its position, so no event was counted twice or missed.
 */
describe('the conversion-funnel job on the single node', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '50' });
  const jobs: JobProcess[] = [];
  let directory: string | null = null;
  afterEach(async () => {
    await Promise.all(jobs.splice(0).map((job) => job.stop('SIGKILL')));
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('prints the funnel of the demo data, keeps it current, and resumes without counting an event twice', async () => {
    const { url } = node.server;
    directory = await mkdtemp(path.join(tmpdir(), 'conversion-funnel-'));
    const checkpointFile = path.join(directory, 'checkpoint.json');
    const admin = await ApiClient.signIn(url);
    const created = await admin.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'Conversion funnel', scopes: ['events:read'] });
    expect(created.status).toBe(201);
    const env = { PF_URL: url, PF_TOKEN: created.body.token, FUNNEL_CHECKPOINT: checkpointFile };
    const start = () => {
      const job = new JobProcess(env);
      jobs.push(job);
      return job;
    };

    const first = start();
    await first.until(() => first.output.some((line) => line.startsWith('Starting from the first event')), 'it started');
    expect((await admin.post('/api/seed-demo')).status).toBe(201);
    const borrowers = ((await admin.get('/api/agents')).body as { type: string }[]).filter((agent) => agent.type === 'borrower').length;
    expect(borrowers).toBeGreaterThan(0);
    // The demo data, then the agents negotiating: reports follow them.
    await first.until(
      () => first.reports().some((report) => report.Borrowers === borrowers && report.Negotiating! > 0),
      'the demo borrowers negotiate',
    );
    const negotiating = first.reports().at(-1)!;
    expect(negotiating.Matched).toBeGreaterThan(0);
    expect(first.reports().length).toBeGreaterThan(1);
    expect(await first.stop('SIGTERM')).toBe(0);
    const stoppedAt = first.output.find((line) => line.startsWith('Stopped at position '))!.slice('Stopped at position '.length);
    const saved = await loadCheckpoint(checkpointFile);
    expect(saved.position).toBe(stoppedAt);
    expect(saved.state).toEqual(await foldFromFeed(url, env.PF_TOKEN, stoppedAt));

    // While it is stopped, another borrower arrives; started again, it resumes after its position.
    expect((await admin.post('/api/agents', { name: 'Late Borrower', type: 'borrower' })).status).toBe(201);
    const second = start();
    await second.until(() => second.output.includes(`Resuming from position ${stoppedAt} (the event feed at ${url})`), 'it resumed');
    await second.until(() => second.reports().some((report) => report.Borrowers === borrowers + 1), 'the late borrower is counted');
    // Killed outright mid-stream, and started again: still each event once.
    expect(await second.stop('SIGKILL')).toBeNull();
    const third = start();
    await third.until(() => third.output.some((line) => line.startsWith('Resuming from position ')), 'it resumed after the kill');
    expect((await admin.post('/api/agents', { name: 'Later Borrower', type: 'borrower' })).status).toBe(201);
    await third.until(() => third.reports().some((report) => report.Borrowers === borrowers + 2), 'the later borrower is counted');
    expect(await third.stop('SIGTERM')).toBe(0);
    const final = await loadCheckpoint(checkpointFile);
    expect(final.state).toEqual(await foldFromFeed(url, env.PF_TOKEN, final.position!));
    expect(final.state.borrowers).toHaveLength(borrowers + 2);
  }, 120_000);

  it('stops with one line naming the problem when the token is refused', async () => {
    const job = new JobProcess({
      PF_URL: node.server.url,
      PF_TOKEN: `pf_${'a'.repeat(43)}`,
      FUNNEL_CHECKPOINT: path.join(tmpdir(), `refused-${process.pid}.json`),
    });
    jobs.push(job);
    expect(await job.exited).toBe(1);
    expect(job.output.join('\n')).toContain('The platform refused the token (401)');
  });
});
