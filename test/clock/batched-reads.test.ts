/**
 * The worker's hot reads batched (Database.reads, src/db/database.ts: a group commit of their own): clock states
 * and report drafts asked by many workers at the same moment answer exactly as when asked alone, refusals included
 * (another worker's session, a device no product uses), over HTTP and called directly; asked in one turn of the
 * event loop they are read together, in fewer round trips than statements. On both databases: the reads go
 * through the same group commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupCommit } from '../../src/db/group-commit.ts';
import type { StatementRunner } from '../../src/db/transaction.ts';
import { clockState } from '../../src/queries/clock-state.ts';
import { reportDraft } from '../../src/queries/report-draft.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

let app: TestApp;
const WORKERS = 12;
let workers: { client: ReturnType<typeof workerClient>; device: string; sessionId: string }[] = [];

beforeAll(async () => {
  app = await startTestApp();
  for (let i = 0; i < WORKERS; i++) {
    const device = `批读 ${String(i).padStart(2, '0')}`;
    await addProduct(app, device);
    const client = workerClient(app, await app.login(`1370000${String(i).padStart(4, '0')}`, 'worker'));
    const started = await client.start(device);
    expect(started.status).toBe(200);
    workers.push({ client, device, sessionId: started.body.sessionId });
  }
  app.clock.advance(90 * MIN);
  for (const w of workers) expect((await w.client.finish(w.device)).status).toBe(200);
});
afterAll(() => app?.close());

/** Every worker's clock state and draft, and two refusals: another worker's session, a device no product uses. */
const asks = () => [
  ...workers.map((w) => () => w.client.state(w.device)),
  ...workers.map((w) => () => w.client.draft(w.sessionId)),
  () => workers[0].client.draft(workers[1].sessionId),
  () => workers[2].client.state('没有这台设备'),
];
/** The status and body, without the request id of an error (each request has its own). */
const answer = (r: { status: number; body: any }) => {
  if (!r.body?.error) return { status: r.status, body: r.body };
  const { requestId: _, ...error } = r.body.error;
  return { status: r.status, body: { ...r.body, error } };
};

describe('the worker’s reads asked at once', () => {
  it('over HTTP answer exactly as when asked one at a time', async () => {
    const alone = [];
    for (const ask of asks()) alone.push(answer(await ask()));
    expect(alone.slice(0, WORKERS).every((a) => a.status === 200)).toBe(true);
    expect(alone.slice(WORKERS, 2 * WORKERS).map((a) => (a.body as { sessionId: string }).sessionId)).toEqual(workers.map((w) => w.sessionId));
    expect(alone.at(-2)).toMatchObject({ status: 404, body: { error: { code: 'SESSION_NOT_FOUND' } } });
    expect(alone.at(-1)).toMatchObject({ status: 404, body: { error: { code: 'DEVICE_NOT_FOUND' } } });
    const together = (await Promise.all(asks().map((ask) => ask()))).map(answer);
    expect(together).toEqual(alone);
  });

  it('asked in one turn of the event loop go in fewer round trips than statements, each with its own answer', async () => {
    // Whether requests over HTTP meet in one batch depends on when they arrive; reads asked in one turn always do.
    const ctx = app.service.ctx;
    const now = ctx.clock.now();
    const worker = (i: number) => ({ phone: `1370000${String(i).padStart(4, '0')}`, role: 'worker' });
    const reads = (runner: StatementRunner) => [
      ...workers.map((w, i) => () => clockState(runner, ctx.clockSettings, now, worker(i), { deviceNo: w.device })),
      ...workers.map((w, i) => () => reportDraft(runner, ctx.clockSettings, now, worker(i), w.sessionId, ctx.calendars)),
      () => reportDraft(runner, ctx.clockSettings, now, worker(0), workers[1].sessionId, ctx.calendars),
      () => clockState(runner, ctx.clockSettings, now, worker(2), { deviceNo: '没有这台设备' }),
    ];
    const outcome = (p: Promise<unknown>) => p.then((value) => ({ value }), (err) => ({ code: (err as { code?: string }).code }));
    const alone = [];
    for (const read of reads(ctx.db.pool)) alone.push(await outcome(read()));
    expect(alone.slice(-2)).toEqual([{ code: 'SESSION_NOT_FOUND' }, { code: 'DEVICE_NOT_FOUND' }]);

    const batched = ctx.db.reads as GroupCommit;
    const before = { ...batched.stats };
    const together = await Promise.all(reads(batched).map((read) => outcome(read())));
    expect(together).toEqual(alone);
    const statements = batched.stats.statements - before.statements;
    const roundTrips = batched.stats.commits - before.commits;
    expect(statements).toBe(reads(batched).length);
    expect(roundTrips).toBeLessThan(statements / 2);
  });
});
