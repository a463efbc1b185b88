-- Downtime (停机) and OEE (设备综合效率): stop reasons, the stops of each device, and where every worker was
-- present on which device (the attended time of the OEE read, src/queries/oee.ts).

-- Stop reasons (停机原因): the inline read model of the streams stop-reason-<code> (src/projections/stop-reasons.ts).
-- A reason in use is deactivated, never deleted.
CREATE TABLE stop_reasons (
  code        text        PRIMARY KEY,
  name        text        NOT NULL,
  -- planned 计划停机, unplanned 非计划停机 (src/domain/stop-reasons.ts)
  category    text        NOT NULL CHECK (category IN ('planned', 'unplanned')),
  active      boolean     NOT NULL,
  defined_at  timestamptz NOT NULL,
  changed_at  timestamptz NOT NULL
);

-- The stops (停机) of a device: the inline read model of the streams stops-<deviceNo> (src/projections/stops.ts).
-- end_at null: recorded as still lasting (a read ends it where the device's attendance ended, src/domain/stops.ts).
CREATE TABLE stops (
  stop_id         uuid        PRIMARY KEY,
  device_no       text        NOT NULL,
  reason_code     text        NOT NULL,
  start_at        timestamptz NOT NULL,
  end_at          timestamptz,
  -- who ended it: a person, or 'system' (ended where the last worker left the device)
  ended_by        text,
  note            text,
  recorded_by     text        NOT NULL,
  recorded_name   text,
  stream_version  bigint      NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX stops_by_device_start ON stops (device_no, start_at);
CREATE INDEX stops_by_start ON stops (start_at);
CREATE INDEX stops_open ON stops (device_no) WHERE end_at IS NULL;

-- Where a clock session's worker was: its device segments [{deviceNo, from, to}] in order (from clock-in or a
-- switch to a device, to a switch away or the clock-out), the inline read model of the worker streams
-- (src/projections/device-presence.ts). current_device: the device of the open segment (null once closed).
CREATE TABLE device_presence (
  session_id      uuid        PRIMARY KEY,
  employee_phone  text        NOT NULL,
  clock_in_at     timestamptz NOT NULL,
  -- the end of the last segment; null while the session is clocked in
  ended_at        timestamptz,
  -- true when the session was abandoned (its end is capped at clock-in + SESSION_MAX_HOURS by the reads)
  abandoned       boolean     NOT NULL,
  current_device  text,
  devices         text[]      NOT NULL,
  segments        jsonb       NOT NULL
);
CREATE INDEX device_presence_by_time ON device_presence (clock_in_at);
CREATE INDEX device_presence_current ON device_presence (current_device, employee_phone) WHERE current_device IS NOT NULL;
CREATE INDEX device_presence_devices ON device_presence USING gin (devices);
