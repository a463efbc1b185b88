-- The device presence (migrations/020: where each clock session's worker was, as device segments) is kept in the
-- session's own row rather than in a table of its own. Every clocking already writes the session's row; the presence
-- row was a second one: an insert at each clock-in (its heap and two indexes) and an update at each switch and
-- clock-out, which the clock cycle paid for on every request of a worker (bench/README.md "The presence in the
-- session's row"). The columns keep their names and meaning (src/projections/sessions.ts); the reads that found
-- the presence by clock-in (device_presence_by_time) find the sessions by clock-in (sessions_by_clock_in, again:
-- migrations/029 dropped it when the presence had its own). A switch of device stays a HOT update (no indexed column
-- changes); a clock-out and a submission change the status, as before, and now add an entry to that index.
ALTER TABLE sessions
  -- the end of the last segment; null while the session is clocked in
  ADD COLUMN ended_at       timestamptz,
  -- true when the session was abandoned (its end is capped at clock-in + SESSION_MAX_HOURS by the reads)
  ADD COLUMN abandoned      boolean NOT NULL DEFAULT false,
  -- the device of the open segment (null once closed)
  ADD COLUMN current_device text,
  -- [{deviceNo, from, to}] in order: from the clock-in or a switch to a device, to the switch away or the clock-out
  ADD COLUMN segments       jsonb   NOT NULL DEFAULT '[]';

UPDATE sessions s
   SET ended_at = p.ended_at, abandoned = p.abandoned, current_device = p.current_device, segments = p.segments
  FROM device_presence p
 WHERE p.session_id = s.session_id;

DROP TABLE device_presence;
CREATE INDEX sessions_by_clock_in ON sessions (clock_in_at);
-- A wider row: leave room on its page for the switch's new version (as device_presence had, migrations/028).
ALTER TABLE sessions SET (fillfactor = 80);
