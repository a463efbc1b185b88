/**
 * The report decider (spec 3.2; decisions.md "Reports and review"): review and break-interval changes on the
 * stream `report-<reportId>`.
 *
 * State: the report as its events leave it (status `none` before ReportSubmitted). Commands:
 * - `Approve {lines?, candidates, at}`: only from `pending` (else 409 REPORT_ALREADY_REVIEWED). `lines` are the
 *   corrected lines (see lines.ts for the rules); lines equal to the current ones are no correction.
 * - `Reject {reason, at}`: only from `pending`; reason trimmed, 1–200 characters (422 INVALID_REASON).
 * - `ChangeBreak {breakMinutes, reason?, at}`: in `pending` or `approved` (409 REPORT_REJECTED otherwise); whole
 *   minutes ≥ 0; 422 BREAK_EXCEEDS_WORKING_TIME when clock-out − clock-in − breakMinutes × 60 s would be
 *   negative. The same value as now decides nothing (no event, nothing to audit).
 * Unknown report: 404 REPORT_NOT_FOUND. Instants `at` are ISO 8601 (UTC).
 */
import type { Decider } from '../decider.ts';
import type { ReportEvent, ReportLine } from '../../events/catalog.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import { resolveCorrectedLines, sameLines, type LineInput, type ProductSnapshot } from './lines.ts';

export type ReportStatus = 'pending' | 'approved' | 'rejected';

export interface ReportState {
  status: 'none' | ReportStatus;
  reportId?: string;
  employeePhone?: string;
  reportDate?: string;
  clockInAt?: string;
  clockOutAt?: string;
  breakMinutes?: number;
  devices?: string[];
  /** Lines as they stand (corrected lines replace the submitted ones). */
  lines?: ReportLine[];
}

export type ReviewCommand =
  | { type: 'Approve'; at: string; lines?: LineInput[]; candidates: ProductSnapshot[] }
  | { type: 'Reject'; at: string; reason: string }
  | { type: 'ChangeBreak'; at: string; breakMinutes: number; reason?: string };

export const REASON_MAX = 200;

/** AppError 404 REPORT_NOT_FOUND. */
export const reportNotFound = () => notFound('REPORT_NOT_FOUND', '没有找到这份报工单');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A report id from a path, lower-cased; anything that is not a UUID names no report: 404 REPORT_NOT_FOUND. */
export function parseReportId(id: string): string {
  if (!UUID.test(id)) throw reportNotFound();
  return id.toLowerCase();
}

const STATUS_LABEL: Record<ReportStatus, string> = { pending: '待审核', approved: '已通过', rejected: '已驳回' };

/** Milliseconds between clock-in and clock-out of the report. */
export const spanMs = (s: Pick<ReportState, 'clockInAt' | 'clockOutAt'>): number =>
  Date.parse(s.clockOutAt!) - Date.parse(s.clockInAt!);

/** Effective working time in milliseconds: clock-out − clock-in − breakMinutes × 60 s (decisions.md). */
export const effectiveMs = (s: Pick<ReportState, 'clockInAt' | 'clockOutAt'>, breakMinutes: number): number =>
  spanMs(s) - breakMinutes * 60_000;

function ref(s: ReportState) {
  return { reportId: s.reportId!, employeePhone: s.employeePhone!, reportDate: s.reportDate! };
}

function existing(state: ReportState): asserts state is ReportState & { status: ReportStatus } {
  if (state.status === 'none') throw reportNotFound();
}

function mustBePending(state: ReportState & { status: ReportStatus }): void {
  if (state.status !== 'pending') {
    throw conflict('REPORT_ALREADY_REVIEWED', `这份报工单${STATUS_LABEL[state.status]}，不能再次审核`, { status: state.status });
  }
}

export const reviewDecider: Decider<ReviewCommand, ReportState, ReportEvent> = {
  initialState: { status: 'none' },

  decide(command, state) {
    existing(state);
    switch (command.type) {
      case 'Approve': {
        mustBePending(state);
        const after = command.lines ? resolveCorrectedLines(command.lines, state.lines!, command.candidates) : undefined;
        const correction = after && !sameLines(state.lines!, after) ? { before: state.lines!, after } : undefined;
        return [{ type: 'ReportApproved', data: { ...ref(state), ...(correction ? { correction } : {}), at: command.at } }];
      }
      case 'Reject': {
        mustBePending(state);
        const reason = (command.reason ?? '').trim();
        if (reason.length === 0 || [...reason].length > REASON_MAX) {
          throw unprocessable('INVALID_REASON', `请填写驳回原因（1–${REASON_MAX} 个字）`);
        }
        return [{ type: 'ReportRejected', data: { ...ref(state), reason, at: command.at } }];
      }
      case 'ChangeBreak': {
        if (state.status === 'rejected') {
          throw conflict('REPORT_REJECTED', '这份报工单已驳回，不能修改休息时间', { status: state.status });
        }
        const minutes = command.breakMinutes;
        if (!Number.isSafeInteger(minutes) || minutes < 0) {
          throw unprocessable('INVALID_BREAK_MINUTES', '休息时间必须是不小于 0 的整数分钟');
        }
        const reason = command.reason?.trim() || undefined;
        if (reason && [...reason].length > REASON_MAX) {
          throw unprocessable('INVALID_REASON', `修改原因最多 ${REASON_MAX} 个字`);
        }
        if (effectiveMs(state, minutes) < 0) {
          const maxBreakMinutes = Math.floor(spanMs(state) / 60_000);
          throw unprocessable('BREAK_EXCEEDS_WORKING_TIME', `休息时间不能超过上班到下班的时长，最多 ${maxBreakMinutes} 分钟`, {
            maxBreakMinutes,
          });
        }
        if (minutes === state.breakMinutes) return [];
        return [
          {
            type: 'BreakChanged',
            data: { ...ref(state), before: state.breakMinutes!, after: minutes, ...(reason ? { reason } : {}), at: command.at },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ReportSubmitted': {
        const d = event.data;
        return {
          status: 'pending',
          reportId: d.reportId,
          employeePhone: d.employeePhone,
          reportDate: d.reportDate,
          clockInAt: d.clockInAt,
          clockOutAt: d.clockOutAt,
          breakMinutes: d.breakMinutes,
          devices: d.devices,
          lines: d.lines,
        };
      }
      case 'ReportApproved':
        return { ...state, status: 'approved', lines: event.data.correction?.after ?? state.lines };
      case 'ReportRejected':
        return { ...state, status: 'rejected' };
      case 'BreakChanged':
        return { ...state, breakMinutes: event.data.after };
      default:
        return state;
    }
  },
};
