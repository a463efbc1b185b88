/**
 * Report events for the review tests: ReportSubmitted payloads built from a few numbers, and appending them
 * through the store (expected version 0), as the submit command does, without the clocking flow.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../src/context.ts';
import { reportFold } from '../../src/commands/review/decider.ts';
import type { ReportLine } from '../../src/domain/report-line.ts';
import { streams, type EventData, type ReportEvent } from '../../src/events/catalog.ts';
import { recordEvents } from '../helpers/record.ts';

export const WORKER = '13800000001';

export function line(productId: number, cycle: number, workload: number, finished: number, defective: number): ReportLine {
  return {
    productId,
    projectNo: `P${productId}`,
    productName: `产品${productId}`,
    deviceNo: 'D1',
    processName: '冲压',
    standardCycleSeconds: cycle,
    standardWorkload: workload,
    finishedQty: finished,
    defectiveQty: defective,
    outputQty: finished + defective,
  };
}

export interface SubmitSpec {
  reportId?: string;
  phone?: string;
  reportDate?: string;
  clockInAt?: string;
  clockOutAt?: string;
  breakMinutes?: number;
  devices?: string[];
  lines?: ReportLine[];
  /** The report's workshop and team codes; none by default. */
  workshopCode?: string | null;
  teamCode?: string | null;
}

export function submitted(s: SubmitSpec = {}): EventData<'ReportSubmitted'> {
  const reportDate = s.reportDate ?? '2026-03-02';
  return {
    reportId: s.reportId ?? randomUUID(),
    employeePhone: s.phone ?? WORKER,
    reportDate,
    sessionId: randomUUID(),
    clockInAt: s.clockInAt ?? `${reportDate}T08:00:00+08:00`,
    clockOutAt: s.clockOutAt ?? `${reportDate}T17:00:00+08:00`,
    breakMinutes: s.breakMinutes ?? 60,
    devices: s.devices ?? ['D1'],
    lines: s.lines ?? [line(901, 10, 2880, 100, 5)],
    flags: [],
    workshopCode: s.workshopCode ?? null,
    teamCode: s.teamCode ?? null,
    breakSource: 'default',
    shift: null,
    at: s.clockOutAt ?? `${reportDate}T17:00:00+08:00`,
  };
}

export const submittedEvent = (s: SubmitSpec = {}): ReportEvent => ({ type: 'ReportSubmitted', data: submitted(s) });

/** Appends a ReportSubmitted for `s` to a new report stream (test/helpers/record.ts); returns its payload. */
export async function submitReport(ctx: AppContext, s: SubmitSpec = {}, workerName = '张三'): Promise<EventData<'ReportSubmitted'>> {
  const data = submitted(s);
  await recordEvents(ctx, { actorPhone: data.employeePhone, actorName: workerName, role: 'worker' }, { streamId: streams.report(data.reportId), fold: reportFold }, [
    { type: 'ReportSubmitted', data },
  ]);
  return data;
}

