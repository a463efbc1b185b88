-- The device presence (migrations/020, src/projections/device-presence.ts) is written by three of a worker's
-- commands every session: the clock-in inserts its row, a switch of device and the clock-out update it. An update
-- that changes an indexed column writes a new entry into every index of the table (not a HOT update); the switch
-- changes `devices` and `current_device`, the clock-out `current_device`, so each wrote four index entries.
--
-- Neither index is needed: "clocked in on this device now" is found through the worker's open session
-- (sessions_one_open_per_worker, migrations/004) and the row's `current_device` (src/domain/presence-sql.ts
-- onDeviceSql); a device's presence lasting at or after an instant through the clock-in (device_presence_by_time:
-- a session's presence ends within SESSION_MAX_HOURS and the report window of its clock-in, or it is still open,
-- and the open ones come by sessions_active_by_clock_in) and a test of `devices` on those rows (attendanceSql), as
-- the OEE read already does. Without them both updates are HOT (no index entry written), given room on the row's
-- page: a fill factor of 80 leaves it.
DROP INDEX device_presence_current;
DROP INDEX device_presence_devices;
ALTER TABLE device_presence SET (fillfactor = 80);
