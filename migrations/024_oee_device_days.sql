-- The OEE read's sums per device and local date of CLOSED days (before the factory's today), kept by the async
-- consumer src/queries/oee-days.ts with the same computation as the live read (src/queries/oee.ts), so a month's
-- read takes its closed days from here and computes only the others (today, days not kept yet) from the raw presence.
-- A date is kept (oee_days_kept) when every device's sums of it are here (a device without a row: nothing that day);
-- an event that changes a date's sums (a clocking, a stop, an approval of that date) drops the date from
-- oee_days_kept, a shift, membership or stop reason event drops every date; the consumer's background work keeps the
-- dates again. The tables start empty: until a date is kept, reads compute it live (the same figures).
CREATE TABLE oee_device_days (
  report_date          date   NOT NULL,
  device_no            text   NOT NULL,
  attended_ms          bigint NOT NULL,
  planned_ms           bigint NOT NULL,
  planned_stop_ms      bigint NOT NULL,
  unplanned_stop_ms    bigint NOT NULL,
  run_ms               bigint NOT NULL,
  ideal_ms             bigint NOT NULL,
  fully_productive_ms  bigint NOT NULL,
  good_qty             bigint NOT NULL,
  total_qty            bigint NOT NULL,
  -- stop time inside the planned time by reason code (ms), {code: ms}
  losses               jsonb  NOT NULL,
  PRIMARY KEY (report_date, device_no)
);

CREATE TABLE oee_days_kept (
  report_date date        PRIMARY KEY,
  kept_at     timestamptz NOT NULL
);
