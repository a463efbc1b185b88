/**
 * The `reports` read model (migrations/004_sessions_reports.sql), inline: a report's row is written in the
 * same transaction as its event, so the next request on any instance sees it (the review and the worker's reads).
 *
 * Events of the `report-<reportId>` stream (src/events/catalog.ts):
 * - ReportSubmitted: the whole row, status `pending` (decisions.md "Reports and review").
 * - ReportApproved: status `approved`; `lines` = `correction.after` when the administrator corrected them;
 *   `reviewed_by` = the event's metadata `actorPhone`, `reviewed_at` = the event's `at`.
 * - ReportRejected: status `rejected`, `reject_reason`, `reviewed_by`, `reviewed_at`.
 * - BreakChanged: `break_minutes` = `after`, `break_source` = `manager`.
 * - `workshop_code`, `team_code`, `break_source`, `shift_id`, `shift_name` (migrations/012): the
 *   report's placement and break source from ReportSubmitted (domain/placement.ts).
 * - `flags` (migrations/010): the plausibility flags of the report's figures as they stand, from
 *   ReportSubmitted, ReportApproved (the approved figures' flags) and BreakChanged (when it carries them).
 * Timestamps are written as ISO 8601 text (UTC), `report_date` as `YYYY-MM-DD`, `lines` as ReportLine[].
 * An event for a report whose row is missing (impossible when ReportSubmitted came first) changes nothing.
 */
import type { EventData } from '../events/catalog.ts';
import type { ProjectedEvent, Projection, Row, RowChange } from './projection.ts';
import { utcIso } from '../time.ts';

const TABLE = 'reports';
const key = (reportId: string) => [reportId] as const;

/** The row of a freshly submitted report. */
export function submittedRow(d: EventData<'ReportSubmitted'>): Row {
  return {
    report_id: d.reportId,
    session_id: d.sessionId,
    employee_phone: d.employeePhone,
    report_date: d.reportDate,
    status: 'pending',
    clock_in_at: d.clockInAt,
    clock_out_at: d.clockOutAt,
    break_minutes: d.breakMinutes,
    devices: d.devices,
    lines: d.lines,
    flags: d.flags,
    workshop_code: d.workshopCode,
    team_code: d.teamCode,
    break_source: d.breakSource,
    shift_id: d.shift?.shiftId ?? null,
    shift_name: d.shift?.name ?? null,
    submitted_at: d.at,
    reviewed_by: null,
    reviewed_at: null,
    reject_reason: null,
    updated_at: d.at,
  };
}

export const reportsProjection: Projection = {
  name: 'reports',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['report_id'],
      columns: ['report_id', 'session_id', 'employee_phone', 'report_date', 'status', 'clock_in_at', 'clock_out_at', 'break_minutes', 'devices', 'lines', 'flags', 'workshop_code', 'team_code', 'break_source', 'shift_id', 'shift_name', 'submitted_at', 'reviewed_by', 'reviewed_at', 'reject_reason', 'updated_at'],
    },
  ],
  eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected', 'BreakChanged'],

  touches(event: ProjectedEvent) {
    // ReportSubmitted writes a new row without reading one (a fresh report id): nothing to load.
    return event.type === 'ReportSubmitted' ? [] : [{ table: TABLE, key: key(event.data.reportId) }];
  },

  apply(event: ProjectedEvent, view): RowChange[] {
    const ref = { table: TABLE, key: key(event.data.reportId) };
    if (event.type === 'ReportSubmitted') {
      const d = event.data as EventData<'ReportSubmitted'>;
      return [{ ...ref, row: submittedRow({ ...d, clockInAt: utcIso(d.clockInAt), clockOutAt: utcIso(d.clockOutAt), at: utcIso(d.at) }) }];
    }
    const row = view.get(TABLE, ref.key);
    if (!row) return [];
    switch (event.type) {
      case 'ReportApproved': {
        const d = event.data as EventData<'ReportApproved'>;
        return [
          {
            ...ref,
            row: {
              ...row,
              status: 'approved',
              lines: d.correction ? d.correction.after : row.lines,
              flags: d.flags,
              reviewed_by: event.metadata.actorPhone ?? null,
              reviewed_at: utcIso(d.at),
              reject_reason: null,
              updated_at: utcIso(d.at),
            },
          },
        ];
      }
      case 'ReportRejected': {
        const d = event.data as EventData<'ReportRejected'>;
        return [
          {
            ...ref,
            row: {
              ...row,
              status: 'rejected',
              reject_reason: d.reason,
              reviewed_by: event.metadata.actorPhone ?? null,
              reviewed_at: utcIso(d.at),
              updated_at: utcIso(d.at),
            },
          },
        ];
      }
      case 'BreakChanged': {
        const d = event.data as EventData<'BreakChanged'>;
        return [{ ...ref, row: { ...row, break_minutes: d.after, break_source: 'manager', flags: d.flags ?? row.flags, updated_at: utcIso(d.at) } }];
      }
      default:
        return [];
    }
  },
};
