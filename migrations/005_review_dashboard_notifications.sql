-- Issue #6 (audit log, dashboard, notification outbox) fills this migration.
SELECT 1;
