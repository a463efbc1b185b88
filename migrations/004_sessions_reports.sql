-- Read models of the worker's flow (issue #5), built by inline projections from the worker and report
-- streams (src/events/catalog.ts). Times are timestamptz; report_date is the local date in APP_TIMEZONE.
CREATE TABLE sessions (
  session_id     uuid PRIMARY KEY,
  employee_phone text        NOT NULL,
  -- active: clocked in; reporting: clocked out, report window open or expired; reported; abandoned
  status         text        NOT NULL CHECK (status IN ('active', 'reporting', 'reported', 'abandoned')),
  clock_in_at    timestamptz NOT NULL,
  clock_out_at   timestamptz,
  expires_at     timestamptz,
  devices        text[]      NOT NULL,
  report_id      uuid,
  -- version of the session's ClockedIn in the worker stream: commands load the stream from here on
  opened_version bigint      NOT NULL,
  updated_at     timestamptz NOT NULL
);
-- the worker's latest session (command loading)
CREATE INDEX sessions_by_worker ON sessions (employee_phone, opened_version DESC);
-- the worker's open session (state query); unique: a safety net under the worker stream's own guarantee
CREATE UNIQUE INDEX sessions_one_open_per_worker ON sessions (employee_phone) WHERE status IN ('active', 'reporting');
-- the abandonment job: active sessions by age, reporting sessions by the end of their window
CREATE INDEX sessions_active_by_clock_in ON sessions (clock_in_at) WHERE status = 'active';
CREATE INDEX sessions_reporting_by_expiry ON sessions (expires_at) WHERE status = 'reporting';

CREATE TABLE reports (
  report_id      uuid PRIMARY KEY,
  session_id     uuid        NOT NULL UNIQUE,
  employee_phone text        NOT NULL,
  report_date    date        NOT NULL,
  status         text        NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  clock_in_at    timestamptz NOT NULL,
  clock_out_at   timestamptz NOT NULL,
  break_minutes  integer     NOT NULL CHECK (break_minutes >= 0),
  devices        text[]      NOT NULL,
  -- ReportLine[] (src/events/catalog.ts) as they stand now: corrected lines replace the submitted ones.
  lines          jsonb       NOT NULL,
  submitted_at   timestamptz NOT NULL,
  reviewed_by    text,
  reviewed_at    timestamptz,
  reject_reason  text,
  updated_at     timestamptz NOT NULL
);
-- GET /api/reports/mine: the worker's reports by date (status filtered on the way)
CREATE INDEX reports_by_worker_date ON reports (employee_phone, report_date DESC, submitted_at DESC);
CREATE INDEX reports_pending_by_submission ON reports (submitted_at) WHERE status = 'pending';
CREATE INDEX reports_by_reviewer ON reports (reviewed_by, reviewed_at DESC) WHERE reviewed_by IS NOT NULL;
