-- Issue #24 part S: reviewers' and managers' scopes, and the dashboard's sums by workshop and team so that the
-- one scope rule (src/domain/scope.ts) and the `workshop` / `team` filters apply to them.

-- scopes: inline projection of the `scope-<phone>` streams (src/projections/scopes.ts). One row per person and
-- role that was ever given a scope; both arrays empty = the whole factory (as no row).
CREATE TABLE scopes (
  phone        text        NOT NULL,
  role         text        NOT NULL CHECK (role IN ('admin', 'manager')),
  workshops    text[]      NOT NULL,
  teams        text[]      NOT NULL,
  set_at       timestamptz NOT NULL,
  set_by_phone text,
  set_by_name  text,
  PRIMARY KEY (phone, role)
);

-- The pending queue of a scoped reviewer reads pending reports by workshop or team.
CREATE INDEX reports_pending_by_workshop ON reports (workshop_code, submitted_at) WHERE status = 'pending';
CREATE INDEX reports_pending_by_team ON reports (team_code, submitted_at) WHERE status = 'pending';

-- Dashboard (src/projections/dashboard.ts): a pending report's placement; the daily sums keyed by the placement
-- too ('' = none: key columns cannot be null), so a day's sums of one worker split by team when the worker moved
-- that day, and a scoped page counts its rows per day and team.
ALTER TABLE dashboard_report_contributions
  ADD COLUMN workshop_code text,
  ADD COLUMN team_code text;

ALTER TABLE dashboard_daily
  ADD COLUMN workshop_key text NOT NULL DEFAULT '',
  ADD COLUMN team_key text NOT NULL DEFAULT '';
DROP INDEX dashboard_daily_key;
CREATE UNIQUE INDEX dashboard_daily_key ON dashboard_daily (report_date DESC, employee_phone ASC, workshop_key, team_key);

ALTER TABLE dashboard_days
  ADD COLUMN workshop_key text NOT NULL DEFAULT '',
  ADD COLUMN team_key text NOT NULL DEFAULT '';
ALTER TABLE dashboard_days DROP CONSTRAINT dashboard_days_pkey;
ALTER TABLE dashboard_days ADD PRIMARY KEY (report_date, workshop_key, team_key);
