/**
 * The per-process facts cache of worker commands over HTTP on the real database (a worker's command
 * is one round trip; src/commands/repository.ts `CachingRepository`, command.ts `runCommand`). A fact cached by a
 * previous command is never trusted on its own: when the person was removed (401 ROLE_REVOKED, nothing
 * written) or renamed (the events carry the new name), a device lost its products (404 DEVICE_NOT_FOUND), a
 * product changed or went away between draft and submission (the new figures are copied; 422
 * PRODUCT_NOT_CANDIDATE), or (PostgreSQL) another API instance moved the worker's stream on, the command
 * decides again on fresh facts: no stale answer, no duplicate event, no gap in the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerState } from '../../src/commands/clock/decider.ts';
import type { CachingRepository, Section } from '../../src/commands/repository.ts';
import { startTestApp, withSecondInstance, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/db.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const sql = (text: string, params: unknown[] = []) => app.service.ctx.db.pool.query(text, params);
const count = async (text: string, params: unknown[]) => Number((await sql(text, params)).rows[0].n);
const streamLength = (phone: string) => count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [`worker-${phone}`]);
const reportsOf = (phone: string) => count(`SELECT count(*) AS n FROM reports WHERE employee_phone = $1`, [phone]);
/** What this process has cached (so the next command decides on it first). */
const cache = () => app.service.ctx.commands.repository as CachingRepository;
const cachedSection = (phone: string) => cache().cachedSection(`worker-${phone}`) as Section<WorkerState> | undefined;
const cachedName = (phone: string) => cache().cachedFacts({ person: { phone, role: 'worker' } })?.personName;
const cachedProducts = (ids: number[]) => cache().cachedFacts({ productIds: ids })?.products ?? [];

let primer = 0;
/**
 * Another worker submits `productIds` on `deviceNo` (at the clock's now): this process then holds the products'
 * snapshots, as after any command that copied them (queries never fill the commands' cache).
 */
async function primeProducts(deviceNo: string, productIds: number[]): Promise<void> {
  const other = workerClient(app, await app.login(`1390000${String(++primer).padStart(4, '0')}`, 'worker'));
  const sessionId = (await other.start(deviceNo)).body.sessionId;
  await other.finish(deviceNo);
  const submitted = await other.submit(sessionId, productIds.map((productId) => ({ productId, finishedQty: 1, defectiveQty: 0 })));
  expect(submitted.status).toBe(201);
}

async function streamOf(phone: string): Promise<{ type: string; version: number; actorName: string }[]> {
  const r = await sql(
    `SELECT event_type, stream_version, metadata->>'actorName' AS actor FROM events WHERE stream_id = $1 ORDER BY stream_version`,
    [`worker-${phone}`],
  );
  return r.rows.map((row) => ({ type: row.event_type, version: Number(row.stream_version), actorName: row.actor }));
}

/** The worker's calls against a second API instance (same shapes as workerClient). */
const clientOf = (second: { request: TestApp['request'] }, token: string) => workerClient({ request: second.request } as TestApp, token);

describe('person removed after the facts were cached', () => {
  it('switch-device → 401 ROLE_REVOKED, nothing appended', async () => {
    const phone = '13900000301';
    await addProduct(app, 'FC-1A');
    await addProduct(app, 'FC-1B');
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    expect((await w.start('FC-1A')).status).toBe(200);
    expect(await streamLength(phone)).toBe(1);
    expect(cachedSection(phone)?.version).toBe(1);

    await sql(`DELETE FROM personnel WHERE phone = $1`, [phone]);
    app.clock.advance(30 * MIN);
    const switched = await w.switchDevice('FC-1B');
    expect(switched.status).toBe(401);
    expect(switched.body.error.code).toBe('ROLE_REVOKED');
    expect(await streamLength(phone)).toBe(1);
    // A repeat of the cached start is refused too (a "nothing to do" answer is only given from fresh facts).
    const repeated = await w.start('FC-1A');
    expect([repeated.status, repeated.body.error?.code]).toEqual([401, 'ROLE_REVOKED']);
    const finished = await w.finish('FC-1A');
    expect([finished.status, finished.body.error?.code]).toEqual([401, 'ROLE_REVOKED']);
    const state = await w.state('FC-1A');
    expect([state.status, state.body.error?.code]).toEqual([401, 'ROLE_REVOKED']);
    expect(await streamLength(phone)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM sessions WHERE employee_phone = $1 AND $2 = ANY(devices)`, [phone, 'FC-1B'])).toBe(0);
  });

  it('draft and submission → 401 ROLE_REVOKED, no report; once the person is back, the submission goes through', async () => {
    const phone = '13900000302';
    const product = await addProduct(app, 'FC-2A', { name: '撤销件' });
    const token = await app.login(phone, 'worker');
    const w = workerClient(app, token);
    app.clock.set('2026-03-02T08:00:00+08:00');
    const sessionId = (await w.start('FC-2A')).body.sessionId;
    app.clock.advance(4 * 60 * MIN);
    expect((await w.finish('FC-2A')).status).toBe(200);
    app.clock.advance(MIN);
    const draft = await w.draft(sessionId);
    expect(draft.status).toBe(200);
    expect(draft.body.candidates.map((c: any) => c.productId)).toEqual([product]);
    await primeProducts('FC-2A', [product]);
    expect(cachedSection(phone)?.state.latest?.sessionId).toBe(sessionId);
    expect(cachedProducts([product])).toHaveLength(1);
    const before = await streamLength(phone);

    await sql(`DELETE FROM personnel WHERE phone = $1`, [phone]);
    const draftAgain = await w.draft(sessionId);
    expect([draftAgain.status, draftAgain.body.error?.code]).toEqual([401, 'ROLE_REVOKED']);
    const submitted = await w.submit(sessionId, [{ productId: product, finishedQty: 10, defectiveQty: 0 }]);
    expect([submitted.status, submitted.body.error?.code]).toEqual([401, 'ROLE_REVOKED']);
    expect(await streamLength(phone)).toBe(before);
    expect(await reportsOf(phone)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM events WHERE event_type = 'ReportSubmitted' AND data->>'sessionId' = $1`, [sessionId])).toBe(0);

    // Nothing was half-written: the same token works again once the person is back.
    await app.login(phone, 'worker');
    const retried = await w.submit(sessionId, [{ productId: product, finishedQty: 10, defectiveQty: 0 }]);
    expect(retried.status).toBe(201);
    expect(await reportsOf(phone)).toBe(1);
    expect((await streamOf(phone)).map((e) => e.type)).toEqual(['ClockedIn', 'ClockedOut', 'SessionReported']);
  });
});

describe('person renamed after the facts were cached', () => {
  it('the next command succeeds and its event carries the new name', async () => {
    const phone = '13900000303';
    await addProduct(app, 'FC-3A');
    await addProduct(app, 'FC-3B');
    const w = workerClient(app, await app.login(phone, 'worker', '旧名字'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    expect((await w.start('FC-3A')).status).toBe(200);
    expect(cachedName(phone)).toBe('旧名字');

    await sql(`UPDATE personnel SET name = $2 WHERE phone = $1`, [phone, '新名字']);
    app.clock.advance(30 * MIN);
    const switched = await w.switchDevice('FC-3B');
    expect(switched.status).toBe(200);
    expect(switched.body.devices).toEqual(['FC-3A', 'FC-3B']);
    app.clock.advance(30 * MIN);
    expect((await w.finish('FC-3B')).status).toBe(200);
    expect(await streamOf(phone)).toEqual([
      { type: 'ClockedIn', version: 1, actorName: '旧名字' },
      { type: 'DeviceSwitched', version: 2, actorName: '新名字' },
      { type: 'ClockedOut', version: 3, actorName: '新名字' },
    ]);
  });
});

describe('device removed after the facts were cached', () => {
  it('switch to a device whose products were deleted → 404 DEVICE_NOT_FOUND; with a product again → 200', async () => {
    const phone = '13900000304';
    await addProduct(app, 'FC-4A');
    await addProduct(app, 'FC-4B');
    await addProduct(app, 'FC-4B');
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    expect((await w.start('FC-4A')).status).toBe(200);
    expect(cachedSection(phone)?.version).toBe(1);

    await sql(`DELETE FROM products WHERE device_no = $1`, ['FC-4B']);
    app.clock.advance(30 * MIN);
    const refused = await w.switchDevice('FC-4B');
    expect([refused.status, refused.body.error?.code]).toEqual([404, 'DEVICE_NOT_FOUND']);
    expect(await streamLength(phone)).toBe(1);

    await addProduct(app, 'FC-4B');
    const switched = await w.switchDevice('FC-4B');
    expect(switched.status).toBe(200);
    expect(switched.body.devices).toEqual(['FC-4A', 'FC-4B']);
    expect((await streamOf(phone)).map((e) => e.type)).toEqual(['ClockedIn', 'DeviceSwitched']);
  });

  it('finish at the active device whose products were deleted → 404 DEVICE_NOT_FOUND, no ClockedOut', async () => {
    const phone = '13900000305';
    await addProduct(app, 'FC-5A');
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const sessionId = (await w.start('FC-5A')).body.sessionId;
    expect(cachedSection(phone)?.version).toBe(1);

    await sql(`DELETE FROM products WHERE device_no = $1`, ['FC-5A']);
    app.clock.advance(4 * 60 * MIN);
    const refused = await w.finish('FC-5A');
    expect([refused.status, refused.body.error?.code]).toEqual([404, 'DEVICE_NOT_FOUND']);
    expect((await streamOf(phone)).map((e) => e.type)).toEqual(['ClockedIn']);
    expect((await sql(`SELECT status FROM sessions WHERE session_id = $1`, [sessionId])).rows[0].status).toBe('active');

    await addProduct(app, 'FC-5A');
    const finished = await w.finish('FC-5A');
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ sessionId, devices: ['FC-5A'], label: '继续报工' });
  });
});

describe('product changed between draft and submission', () => {
  it('a changed cycle time and workload: the submission copies the new figures', async () => {
    const phone = '13900000306';
    const product = await addProduct(app, 'FC-6A', { name: '改节拍件', cycle: 12.5, workload: 2304 });
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const sessionId = (await w.start('FC-6A')).body.sessionId;
    app.clock.advance(8 * 60 * MIN);
    await w.finish('FC-6A');
    const draft = await w.draft(sessionId);
    expect(draft.status).toBe(200);
    expect(draft.body.candidates).toMatchObject([{ productId: product, standardCycleSeconds: 12.5, standardWorkload: 2304 }]);
    await primeProducts('FC-6A', [product]);
    expect(cachedProducts([product])).toMatchObject([{ standardCycleSeconds: 12.5, standardWorkload: 2304 }]);
    expect(cachedSection(phone)?.state.latest?.sessionId).toBe(sessionId);

    await sql(`UPDATE products SET standard_cycle_seconds = 20, standard_workload = 1440 WHERE id = $1`, [product]);
    app.clock.advance(MIN);
    const submitted = await w.submit(sessionId, [{ productId: product, finishedQty: 100, defectiveQty: 2 }]);
    expect(submitted.status).toBe(201);

    const stored = (await sql(`SELECT lines FROM reports WHERE report_id = $1`, [submitted.body.reportId])).rows[0].lines;
    expect(stored).toMatchObject([{ productId: product, standardCycleSeconds: 20, standardWorkload: 1440, finishedQty: 100, defectiveQty: 2, outputQty: 102 }]);
    const mine = (await w.mine()).body;
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0].lines).toMatchObject([{ productId: product, standardCycleSeconds: 20, standardWorkload: 1440 }]);
    const event = (await sql(`SELECT data FROM events WHERE stream_id = $1`, [`report-${submitted.body.reportId}`])).rows[0].data;
    expect(event.lines).toMatchObject([{ standardCycleSeconds: 20, standardWorkload: 1440 }]);
  });

  it('a product deleted between draft and submission → 422 PRODUCT_NOT_CANDIDATE, no report', async () => {
    const phone = '13900000307';
    const kept = await addProduct(app, 'FC-7A', { name: '保留件' });
    const gone = await addProduct(app, 'FC-7A', { name: '删除件' });
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const sessionId = (await w.start('FC-7A')).body.sessionId;
    app.clock.advance(8 * 60 * MIN);
    await w.finish('FC-7A');
    const draft = await w.draft(sessionId);
    expect(draft.body.candidates.map((c: any) => c.productId).sort()).toEqual([kept, gone].sort());
    await primeProducts('FC-7A', [kept, gone]);
    expect(cachedProducts([kept, gone])).toHaveLength(2);
    const before = await streamLength(phone);

    await sql(`DELETE FROM products WHERE id = $1`, [gone]);
    app.clock.advance(MIN);
    const refused = await w.submit(sessionId, [
      { productId: kept, finishedQty: 5, defectiveQty: 0 },
      { productId: gone, finishedQty: 5, defectiveQty: 0 },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'PRODUCT_NOT_CANDIDATE', details: { line: 2, productId: gone } });
    expect(await reportsOf(phone)).toBe(0);
    expect(await streamLength(phone)).toBe(before);
  });
});

// A second API instance needs a second process's worth of connections to the same database: PGlite in memory
// is private to the test's own instance, so these run on PostgreSQL only.
describe('two API instances sharing the database', () => {
  it.runIf(onPostgres)('the worker alternates instances: each stale cache is caught, the stream has no duplicate and no gap', async () => {
    const phone = '13900000308';
    const product1 = await addProduct(app, 'FC-8A', { name: '甲件' });
    const product2 = await addProduct(app, 'FC-8B', { name: '乙件' });
    const token = await app.login(phone, 'worker');
    await withSecondInstance(app, async (second) => {
      const a = workerClient(app, token);
      const b = clientOf(second, token);
      app.clock.set('2026-03-02T08:00:00+08:00');

      const started = await a.start('FC-8A');
      expect(started.status).toBe(200);
      const sessionId = started.body.sessionId;
      app.clock.advance(60 * MIN);
      const switched = await b.switchDevice('FC-8B');
      expect(switched.status).toBe(200);
      expect(switched.body).toMatchObject({ sessionId, devices: ['FC-8A', 'FC-8B'] });
      app.clock.advance(7 * 60 * MIN);
      expect(cachedSection(phone)?.version).toBe(1); // A's cached section is one event behind
      const finished = await a.finish('FC-8A');
      expect(finished.status).toBe(200);
      expect(finished.body).toMatchObject({ sessionId, devices: ['FC-8A', 'FC-8B'], label: '继续报工' });
      app.clock.advance(MIN);
      const draft = await b.draft(sessionId);
      expect(draft.status).toBe(200);
      expect(draft.body.devices).toEqual(['FC-8A', 'FC-8B']);
      expect(draft.body.candidates.map((c: any) => c.productId)).toEqual([product1, product2]);
      const submitted = await a.submit(sessionId, [
        { productId: product1, finishedQty: 100, defectiveQty: 1 },
        { productId: product2, finishedQty: 50, defectiveQty: 0 },
      ]);
      expect(submitted.status).toBe(201);

      app.clock.advance(10 * MIN);
      const again = await b.start('FC-8A'); // B's cached section still has the session active
      expect(again.status).toBe(200);
      expect(again.body.sessionId).not.toBe(sessionId);
      expect(again.body).toMatchObject({ devices: ['FC-8A'], label: '下班报工' });

      expect((await streamOf(phone)).map((e) => [e.type, e.version])).toEqual([
        ['ClockedIn', 1],
        ['DeviceSwitched', 2],
        ['ClockedOut', 3],
        ['SessionReported', 4],
        ['ClockedIn', 5],
      ]);
      const first = (await sql(`SELECT status, devices, report_id FROM sessions WHERE session_id = $1`, [sessionId])).rows[0];
      expect(first).toEqual({ status: 'reported', devices: ['FC-8A', 'FC-8B'], report_id: submitted.body.reportId });
      expect(await count(`SELECT count(*) AS n FROM sessions WHERE employee_phone = $1`, [phone])).toBe(2);
      expect(await reportsOf(phone)).toBe(1);
    });
  });

  it.runIf(onPostgres)('a repeated start after the other instance clocked out → 409 CLOCK_STATE_CONFLICT 继续报工, not the stale 200', async () => {
    const phone = '13900000309';
    await addProduct(app, 'FC-9A');
    const token = await app.login(phone, 'worker');
    await withSecondInstance(app, async (second) => {
      const a = workerClient(app, token);
      const b = clientOf(second, token);
      app.clock.set('2026-03-02T08:00:00+08:00');

      const started = await a.start('FC-9A');
      expect(started.status).toBe(200);
      const sessionId = started.body.sessionId;
      // A repeat on the same instance, with nothing changed, answers as the first start did.
      expect((await a.start('FC-9A')).body).toEqual(started.body);
      app.clock.advance(4 * 60 * MIN);
      expect((await b.finish('FC-9A')).status).toBe(200);
      app.clock.advance(MIN);

      // A's cache still says "active at FC-9A, last event ClockedIn there": a same-start repeat by its lights.
      expect(cachedSection(phone)?.state.latest).toMatchObject({ sessionId, status: 'active' });
      const repeated = await a.start('FC-9A');
      expect(repeated.status).toBe(409);
      expect(repeated.body.error).toMatchObject({ code: 'CLOCK_STATE_CONFLICT', details: { label: '继续报工', sessionId } });
      expect((await streamOf(phone)).map((e) => [e.type, e.version])).toEqual([
        ['ClockedIn', 1],
        ['ClockedOut', 2],
      ]);
      expect((await a.state('FC-9A')).body).toMatchObject({ label: '继续报工', sessionId });
    });
  });
});
