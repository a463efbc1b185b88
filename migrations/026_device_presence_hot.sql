-- Downtime (停机): where a worker is now is read from their latest session (a worker's sessions never overlap, so an
-- open one is always the latest), on an index of columns that never change after the clock-in. The index on the
-- current device changed with every switch and clock-out, so each of them wrote a new row version with an entry in
-- every index; now a clock-out changes no indexed column and is a heap-only update (HOT), given room on the page.
DROP INDEX device_presence_current;
CREATE INDEX device_presence_by_worker ON device_presence (employee_phone, clock_in_at DESC);
ALTER TABLE device_presence SET (fillfactor = 80);
