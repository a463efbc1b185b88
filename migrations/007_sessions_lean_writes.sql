-- Issue #5 (worker commands on the hot path): fewer index writes per session change.
-- The worker's latest session is found from the worker stream's last ClockedIn (unique index on
-- (stream_id, stream_version), read backwards: src/commands/clock/facts.ts), and the open session through
-- sessions_one_open_per_worker, so this index only cost a write on every new session and status change.
DROP INDEX sessions_by_worker;
-- Room on each page for an updated row version next to the old one: a 换设备 (devices, updated_at; no indexed
-- column) can then be a HOT update, with no index write at all. Applies to pages written from now on.
ALTER TABLE sessions SET (fillfactor = 85);
