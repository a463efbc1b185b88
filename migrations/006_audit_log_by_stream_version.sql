-- Issue #5 (one round trip per worker command): audit rows are keyed by their report stream's version instead
-- of the event's global position. The stream version of an event is known before it is appended (expected
-- version + its place), the global position only after, so with this key the inline projections can be
-- computed first and written in the same statement as the append (src/events/store.ts). Within one report
-- the order is the same: the report stream's versions follow its events' positions.
ALTER TABLE report_audit_logs ADD COLUMN stream_version bigint;
UPDATE report_audit_logs a SET stream_version = e.stream_version FROM events e WHERE e.global_position = a.event_position;
ALTER TABLE report_audit_logs ALTER COLUMN stream_version SET NOT NULL;
ALTER TABLE report_audit_logs DROP CONSTRAINT report_audit_logs_pkey;
DROP INDEX report_audit_logs_by_report;
ALTER TABLE report_audit_logs DROP COLUMN event_position;
ALTER TABLE report_audit_logs ADD PRIMARY KEY (report_id, stream_version, seq);
