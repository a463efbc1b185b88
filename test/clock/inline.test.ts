/**
 * Inline projection (src/projections/inline.ts): the rows a command writes in its one statement
 * are computed before the events are stored, from the loaded stream section.
 * - pure: new events apply over the rows the section's events build; a new event touching a row the section does
 *   not hold is a defect, not a silent skip; rows known to exist are marked for an in-place update;
 * - over HTTP on the real database: after a whole flow (start, switch, finish, 重新报工, submit, an abandoned
 *   session closed by a new start, a review with a correction, a break change) the sessions, reports and audit
 *   rows the commands wrote are exactly the rows a replay of the events builds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsAfter, rowsOf } from '../../src/projections/inline.ts';
import type { ProjectedEvent } from '../../src/projections/projection.ts';
import { sessionsProjection } from '../../src/projections/sessions.ts';
import { reportsProjection } from '../../src/projections/reports.ts';
import { auditLogProjection } from '../../src/projections/audit-log.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

const at = '2026-03-02T00:00:00.000Z';
const streamId = 'worker-13800000901';
const event = (type: string, data: object, streamVersion: number): ProjectedEvent => ({
  streamId,
  streamVersion,
  type,
  data,
  metadata: { actorPhone: '13800000901' },
  recordedAt: new Date(at),
});
const clockedIn = event('ClockedIn', { sessionId: 's-1', employeePhone: '13800000901', deviceNo: 'A', at }, 1);

describe('rows of new events (pure)', () => {
  it('applies new events over the rows of the section, marking rows that exist for an update in place', () => {
    const known = rowsOf([sessionsProjection], [clockedIn]);
    const rows = rowsAfter([sessionsProjection], known, [event('DeviceSwitched', { sessionId: 's-1', employeePhone: '13800000901', deviceNo: 'B', at }, 2)]);
    const [change] = rows.get('sessions')!.changes.values();
    expect(change.existed).toBe(true);
    expect(change.row).toMatchObject({ session_id: 's-1', devices: ['A', 'B'], opened_version: 1, status: 'active' });
  });

  it('refuses a new event that touches a row the loaded section does not hold', () => {
    const out = event('ClockedOut', { sessionId: 's-9', employeePhone: '13800000901', deviceNo: 'A', at, expiresAt: at, reopened: false }, 6);
    expect(() => rowsAfter([sessionsProjection], new Map(), [out])).toThrow(/outside the loaded stream section/);
  });
});

describe('rows written ahead equal the rows a replay builds', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SESSION_MAX_HOURS: '16' });
  });
  afterAll(() => app?.close());

  it('after a whole flow, an abandoned session, a corrected approval and a break change', async () => {
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

    // A review with a corrected line and a break change: the report stream's commands project inline too.
    const reportId = (await pool.query(`SELECT report_id FROM reports WHERE employee_phone = '13800000902'`)).rows[0].report_id;
    const admin = await app.login('13800000903', 'admin');
    const manager = await app.login('13800000904', 'manager');
    const approved = await app.request('POST', `/api/reviews/${reportId}/approve`, { token: admin, body: { lines: [{ productId: p, finishedQty: 41, defectiveQty: 1 }] } });
    expect([approved.status, approved.body.corrected]).toEqual([200, true]);
    const changed = await app.request('PATCH', `/api/reports/${reportId}/break-minutes`, { token: manager, body: { breakMinutes: 30, reason: '核对' } });
    expect(changed.status).toBe(200);

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
