-- Issue #4 (platform accounts, device codes, login limits) fills this migration.
SELECT 1;
