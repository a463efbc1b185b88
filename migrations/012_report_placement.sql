-- Issue #24: where a report is counted and where its break came from (src/domain/placement.ts), from
-- ReportSubmitted version 3; reports written before are in no team with the default break.
-- workshop_code, team_code: the worker's workshop and team as of report_date (null: in no team).
-- break_source: shift | default | manager (after a BreakChanged); shift_id, shift_name: the shift of a `shift` break.
ALTER TABLE reports
  ADD COLUMN workshop_code text,
  ADD COLUMN team_code text,
  ADD COLUMN break_source text NOT NULL DEFAULT 'default' CHECK (break_source IN ('shift', 'default', 'manager')),
  ADD COLUMN shift_id text,
  ADD COLUMN shift_name text;
