-- Issue #6: the audit trail of reports, the dashboard's sums and the outbox of subscription messages.

-- report_audit_logs: inline projection of the report stream (src/projections/audit-log.ts). One row per
-- thing that happened; a correction gives one 'corrected' row per changed line. Keyed by the event's global
-- position and a sequence within the event, so rebuilding from the events gives the same rows.
CREATE TABLE report_audit_logs (
  event_position bigint      NOT NULL,
  seq            integer     NOT NULL,
  report_id      uuid        NOT NULL,
  action         text        NOT NULL CHECK (action IN ('submitted', 'corrected', 'approved', 'rejected', 'break_changed')),
  actor_phone    text,
  actor_name     text,
  actor_role     text,
  at             timestamptz NOT NULL,
  -- corrected: the product of the line; null otherwise
  product_id     bigint,
  -- corrected: the line before/after (null when added/removed); break_changed: {"breakMinutes": n}
  before         jsonb,
  after          jsonb,
  reason         text,
  PRIMARY KEY (event_position, seq)
);
CREATE INDEX report_audit_logs_by_report ON report_audit_logs (report_id, event_position, seq);

-- Dashboard (async projection src/projections/dashboard.ts). Exact integer sums: milliseconds, pieces, and
-- standard cycle time in thousandths of a second times pieces.
-- One row per PENDING report: what it will contribute to its day once approved (forgotten on approval or
-- rejection, so the table stays as small as the review queue).
CREATE TABLE dashboard_report_contributions (
  report_id          uuid    PRIMARY KEY,
  report_date        date    NOT NULL,
  employee_phone     text    NOT NULL,
  employee_name      text,
  span_ms            bigint  NOT NULL,   -- clock-out − clock-in
  break_minutes      integer NOT NULL,
  finished_qty       bigint  NOT NULL,
  defective_qty      bigint  NOT NULL,
  output_qty         bigint  NOT NULL,
  cycle_output_milli bigint  NOT NULL,   -- Σ round(standard cycle s × 1000) × outputQty
  standard_workload  bigint  NOT NULL
);

-- Approved reports merged by report_date + employee_phone (decisions.md "Calculations").
CREATE TABLE dashboard_daily (
  report_date        date    NOT NULL,
  employee_phone     text    NOT NULL,
  employee_name      text,
  report_count       integer NOT NULL,
  effective_ms       bigint  NOT NULL,
  finished_qty       bigint  NOT NULL,
  defective_qty      bigint  NOT NULL,
  output_qty         bigint  NOT NULL,
  cycle_output_milli bigint  NOT NULL,
  standard_workload  bigint  NOT NULL
);
-- The key, in the page order (report_date descending, then employee phone): one index serves the projection's
-- upserts (ON CONFLICT infers it) and the page's ordered range read.
CREATE UNIQUE INDEX dashboard_daily_key ON dashboard_daily (report_date DESC, employee_phone ASC);

-- Rows of dashboard_daily per day, so the total of a page is a sum over at most 366 rows.
CREATE TABLE dashboard_days (
  report_date date    PRIMARY KEY,
  row_count   integer NOT NULL
);

-- Subscription messages to send (src/notifications/). Written by the notification reactor in the same
-- transaction as its checkpoint (exactly once per event and recipient); delivered by the sender.
CREATE TABLE notification_outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_position  bigint      NOT NULL,
  kind            text        NOT NULL,
  recipient_phone text        NOT NULL,
  openid          text        NOT NULL,
  template_id     text        NOT NULL,
  page            text,
  data            jsonb       NOT NULL,
  -- pending: to send (at next_attempt_at); sending: claimed until lease_until; sent; dropped (43101); failed
  status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'dropped', 'failed')),
  attempts        integer     NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_until     timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL,
  finished_at     timestamptz,
  CONSTRAINT notification_outbox_once UNIQUE (event_position, kind, recipient_phone)
);
CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_outbox_leased ON notification_outbox (lease_until) WHERE status = 'sending';
