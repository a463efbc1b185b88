-- The crew's sessions overlapping a window (src/crew/sql.ts crewPresenceSql) are found by clock-in through the device
-- presence's index (device_presence_by_time, migrations/020: one presence row per session, the same clock-in), then
-- their session rows by key. The sessions' own index by clock-in (migrations/021) is dropped: a clock-in, a clock-out
-- and a submission each wrote an entry in it (the session's status changes, so those updates are never HOT), for a
-- lookup only crew lines make.
DROP INDEX sessions_by_clock_in;
