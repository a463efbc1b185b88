/**
 * The inline `sessions` and `reports` projections on the database: events appended through the store and
 * projected in the same transaction give the rows the review and the worker's queries read; replay rebuilds them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { withTransaction } from '../../src/db/transaction.ts';
import { streams, type DomainEvent } from '../../src/events/catalog.ts';
import type { ReportLine } from '../../src/domain/report-line.ts';
import { EventStore, type EventMetadata } from '../../src/events/store.ts';
import { projectBatch } from '../../src/projections/runner.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { reportsProjection } from '../../src/projections/reports.ts';
import { sessionsProjection } from '../../src/projections/sessions.ts';
import { openTestDatabase } from '../helpers/db.ts';

let db: Database;
const store = new EventStore();
const phone = '13800000001';

beforeAll(async () => {
  db = await openTestDatabase();
  await runMigrations(db.pool);
});
afterAll(() => db.close());

async function append(streamId: string, events: DomainEvent[], metadata: EventMetadata = { actorPhone: phone }) {
  await withTransaction(db.pool, async (tx) => {
    const stored = await store.append(tx, [{ streamId, expectedVersion: 'any', events }], metadata, new Date());
    await projectBatch(tx, sessionsProjection, stored);
    await projectBatch(tx, reportsProjection, stored);
  });
}

const line = (productId: number, finishedQty: number, defectiveQty: number): ReportLine => ({
  productId,
  projectNo: 'P1',
  productName: '支架',
  deviceNo: '冲床 1',
  processName: '冲压',
  standardCycleSeconds: 12.5,
  standardWorkload: 2304,
  finishedQty,
  defectiveQty,
  outputQty: finishedQty + defectiveQty,
});

async function reportRow(reportId: string) {
  const r = await db.pool.query(
    `SELECT report_id, session_id, employee_phone, report_date, status, clock_in_at, clock_out_at, break_minutes,
            devices, lines, submitted_at, reviewed_by, reviewed_at, reject_reason
       FROM reports WHERE report_id = $1`,
    [reportId],
  );
  return r.rows[0];
}

function submitted(reportId: string, sessionId: string): DomainEvent {
  return {
    type: 'ReportSubmitted',
    data: {
      reportId,
      sessionId,
      employeePhone: phone,
      reportDate: '2026-03-02',
      clockInAt: '2026-03-02T08:00:00+08:00',
      clockOutAt: '2026-03-02T17:00:00+08:00',
      breakMinutes: 60,
      devices: ['冲床 1', 'B-2'],
      lines: [line(1, 10, 2)],
      flags: [],
      workshopCode: null,
      teamCode: null,
      breakSource: 'default',
      shift: null,
      at: '2026-03-02T17:05:00+08:00',
    },
  };
}

describe('reports projection', () => {
  it('writes a pending report on ReportSubmitted, with the times as instants and the lines as submitted', async () => {
    const reportId = randomUUID();
    const sessionId = randomUUID();
    await append(streams.report(reportId), [submitted(reportId, sessionId)]);
    const row = await reportRow(reportId);
    expect(row).toMatchObject({
      session_id: sessionId,
      employee_phone: phone,
      report_date: '2026-03-02',
      status: 'pending',
      break_minutes: 60,
      devices: ['冲床 1', 'B-2'],
      lines: [line(1, 10, 2)],
      reviewed_by: null,
      reviewed_at: null,
      reject_reason: null,
    });
    expect(row.clock_in_at.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(row.clock_out_at.toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect(row.submitted_at.toISOString()).toBe('2026-03-02T09:05:00.000Z');
  });

  it('approves with corrected lines, the reviewer from the metadata and the time from the event', async () => {
    const reportId = randomUUID();
    await append(streams.report(reportId), [submitted(reportId, randomUUID())]);
    const ref = { reportId, employeePhone: phone, reportDate: '2026-03-02' };
    await append(
      streams.report(reportId),
      [{ type: 'ReportApproved', data: { ...ref, correction: { before: [line(1, 10, 2)], after: [line(1, 9, 3)] }, flags: [], at: '2026-03-03T09:00:00+08:00' } }],
      { actorPhone: '13900000009', role: 'admin' },
    );
    const row = await reportRow(reportId);
    expect(row.status).toBe('approved');
    expect(row.lines).toEqual([line(1, 9, 3)]);
    expect(row.reviewed_by).toBe('13900000009');
    expect(row.reviewed_at.toISOString()).toBe('2026-03-03T01:00:00.000Z');
  });

  it('approves without correction keeping the lines; changes break minutes; rejects with the reason', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await append(streams.report(a), [submitted(a, randomUUID())]);
    await append(streams.report(b), [submitted(b, randomUUID())]);
    const refA = { reportId: a, employeePhone: phone, reportDate: '2026-03-02' };
    const refB = { reportId: b, employeePhone: phone, reportDate: '2026-03-02' };
    await append(streams.report(a), [{ type: 'ReportApproved', data: { ...refA, flags: [], at: '2026-03-03T09:00:00+08:00' } }], { actorPhone: '13900000009' });
    await append(streams.report(a), [{ type: 'BreakChanged', data: { ...refA, before: 60, after: 45, reason: '午休缩短', at: '2026-03-04T09:00:00+08:00' } }], {
      actorPhone: '13700000007',
    });
    await append(streams.report(b), [{ type: 'ReportRejected', data: { ...refB, reason: '数量不对', at: '2026-03-03T10:00:00+08:00' } }], {
      actorPhone: '13900000009',
    });
    const rowA = await reportRow(a);
    expect(rowA).toMatchObject({ status: 'approved', lines: [line(1, 10, 2)], break_minutes: 45, reviewed_by: '13900000009' });
    const rowB = await reportRow(b);
    expect(rowB).toMatchObject({ status: 'rejected', reject_reason: '数量不对', reviewed_by: '13900000009' });
    expect(rowB.reviewed_at.toISOString()).toBe('2026-03-03T02:00:00.000Z');
  });

  it('replays to the very same rows', async () => {
    const before = (await db.pool.query(`SELECT * FROM reports ORDER BY report_id`)).rows;
    expect(before.length).toBeGreaterThanOrEqual(4);
    await replayProjection(db.pool, store, reportsProjection);
    const after = (await db.pool.query(`SELECT * FROM reports ORDER BY report_id`)).rows;
    expect(after).toEqual(before);
  });
});

describe('sessions projection', () => {
  it('follows a session from clock-in through switch, clock-out and 重新报工 to reported, and replays to the same rows', async () => {
    const sessionId = randomUUID();
    const reportId = randomUUID();
    const worker = '13800000002';
    const stream = streams.worker(worker);
    const base = { sessionId, employeePhone: worker };
    await append(stream, [{ type: 'ClockedIn', data: { ...base, deviceNo: 'A 1', at: '2026-03-02T08:00:00+08:00' } }]);
    await append(stream, [
      { type: 'DeviceSwitched', data: { ...base, deviceNo: '冲床', at: '2026-03-02T10:00:00+08:00' } },
      { type: 'DeviceSwitched', data: { ...base, deviceNo: 'A 1', at: '2026-03-02T11:00:00+08:00' } },
    ]);
    await append(stream, [
      { type: 'ClockedOut', data: { ...base, deviceNo: 'A 1', at: '2026-03-02T17:00:00+08:00', expiresAt: '2026-03-02T17:30:00+08:00', reopened: false } },
    ]);
    const read = async () => (await db.pool.query(`SELECT * FROM sessions WHERE session_id = $1`, [sessionId])).rows[0];
    let row = await read();
    expect(row).toMatchObject({ status: 'reporting', devices: ['A 1', '冲床'], opened_version: 1, employee_phone: worker });
    expect(row.clock_out_at.toISOString()).toBe('2026-03-02T09:00:00.000Z');
    await append(stream, [
      { type: 'ClockedOut', data: { ...base, deviceNo: 'A 1', at: '2026-03-02T18:00:00+08:00', expiresAt: '2026-03-02T18:30:00+08:00', reopened: true } },
      { type: 'SessionReported', data: { ...base, reportId, at: '2026-03-02T18:10:00+08:00' } },
    ]);
    row = await read();
    expect(row).toMatchObject({ status: 'reported', report_id: reportId });
    expect(row.clock_out_at.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(row.expires_at.toISOString()).toBe('2026-03-02T10:30:00.000Z');

    const before = (await db.pool.query(`SELECT * FROM sessions ORDER BY session_id`)).rows;
    await replayProjection(db.pool, store, sessionsProjection);
    const after = (await db.pool.query(`SELECT * FROM sessions ORDER BY session_id`)).rows;
    expect(after).toEqual(before);
  });
});
