/**
 * Inline projection ahead of the append (src/projections/ahead.ts; issue #5): the rows a worker's command writes
 * in its one statement are computed before the events are stored, from the loaded stream section.
 * - pure: events ahead of the append refuse to give a global position; a new event touching a row the section
 *   does not hold is a defect, not a silent skip; rows known to exist are marked for an in-place update;
 * - over HTTP on the real database: after a whole flow (start, switch, finish, 重新报工, submit, an abandoned
 *   session closed by a new start) the sessions, reports and audit rows written ahead are exactly the rows a
 *   replay of the events builds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aheadOfAppend, rowsAhead, rowsOf } from '../../src/projections/ahead.ts';
import { sessionsProjection } from '../../src/projections/sessions.ts';
import { reportsProjection } from '../../src/projections/reports.ts';
import { auditLogProjection } from '../../src/projections/audit-log.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

const at = '2026-03-02T00:00:00.000Z';
const meta = { actorPhone: '13800000901' };
const clockedIn = { type: 'ClockedIn', data: { sessionId: 's-1', employeePhone: '13800000901', deviceNo: 'A', at }, streamVersion: 1, metadata: meta, recordedAt: new Date(at) };

describe('rows ahead of the append (pure)', () => {
  it('an event ahead of its append has a stream version but no global position or transaction id', () => {
    const e = aheadOfAppend('worker-13800000901', clockedIn);
    expect([e.streamId, e.streamVersion, e.type]).toEqual(['worker-13800000901', 1, 'ClockedIn']);
    expect(() => e.globalPosition).toThrow(/not known before the append/);
    expect(() => e.transactionId).toThrow(/not known before the append/);
  });

  it('applies new events over the rows of the section, marking rows that exist for an update in place', () => {
    const known = rowsOf([sessionsProjection], 'worker-13800000901', [clockedIn]);
    const rows = rowsAhead(
      [sessionsProjection],
      known,
      [{ streamId: 'worker-13800000901', expectedVersion: 1, events: [{ type: 'DeviceSwitched', data: { sessionId: 's-1', employeePhone: '13800000901', deviceNo: 'B', at } }] }],
      meta,
      new Date(at),
    );
    const [change] = rows.get('sessions')!.changes.values();
    expect(change.existed).toBe(true);
    expect(change.row).toMatchObject({ session_id: 's-1', devices: ['A', 'B'], opened_version: 1, status: 'active' });
  });

  it('refuses a new event that touches a row the loaded section does not hold', () => {
    expect(() =>
      rowsAhead(
        [sessionsProjection],
        new Map(),
        [{ streamId: 'worker-13800000901', expectedVersion: 5, events: [{ type: 'ClockedOut', data: { sessionId: 's-9', employeePhone: '13800000901', deviceNo: 'A', at, expiresAt: at, reopened: false } }] }],
        meta,
        new Date(at),
      ),
    ).toThrow(/outside the loaded stream section/);
  });
});

describe('rows written ahead equal the rows a replay builds', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SESSION_MAX_HOURS: '16' });
  });
  afterAll(() => app?.close());

  it('after a whole flow, an abandoned session and a correction-free review', async () => {
    const pool = app.service.ctx.db.pool;
    const p = await addProduct(app, 'AH-1', { name: '前置件' });
    await addProduct(app, 'AH-2', { name: '后置件' });
    const w = workerClient(app, await app.login('13800000902', 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const s = (await w.start('AH-1')).body.sessionId;
    app.clock.advance(MIN);
    expect((await w.switchDevice('AH-2')).status).toBe(200);
    app.clock.advance(8 * 60 * MIN);
    expect((await w.finish('AH-2')).status).toBe(200);
    app.clock.advance(31 * MIN);
    expect((await w.finish('AH-2')).body.label).toBe('继续报工'); // 重新报工: a new window
    expect((await w.draft(s)).status).toBe(200);
    expect((await w.submit(s, [{ productId: p, finishedQty: 40, defectiveQty: 2 }])).status).toBe(201);
    // A session left open past SESSION_MAX_HOURS is closed by the next start, in the same statement.
    const old = (await w.start('AH-1')).body.sessionId;
    app.clock.advance(17 * 60 * MIN);
    const next = await w.start('AH-1');
    expect(next.status).toBe(200);
    expect(next.body.sessionId).not.toBe(old);

    const snapshot = async () => ({
      sessions: (await pool.query(`SELECT * FROM sessions ORDER BY session_id`)).rows,
      reports: (await pool.query(`SELECT * FROM reports ORDER BY report_id`)).rows,
      audit: (await pool.query(`SELECT * FROM report_audit_logs ORDER BY report_id, stream_version, seq`)).rows,
    });
    const written = await snapshot();
    expect(written.sessions.map((r) => r.status).sort()).toEqual(['abandoned', 'active', 'reported']);
    for (const projection of [sessionsProjection, reportsProjection, auditLogProjection]) await replayProjection(pool, app.service.ctx.store, projection);
    expect(await snapshot()).toEqual(written);
  });
});
