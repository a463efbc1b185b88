-- Issue #24 part B: shifts (班次), their assignment to teams and per-date overrides. Inline projections of the
-- streams shift-<shiftId> and team-shifts-<teamCode> (src/projections/shifts.ts). Local times are 'HH:mm' text in
-- APP_TIMEZONE; local dates are date.

-- Shifts as last defined: break windows [{start, end, paid?}] (src/domain/shift-breaks.ts).
CREATE TABLE shifts (
  shift_id    text        PRIMARY KEY,
  name        text        NOT NULL,
  start_time  text        NOT NULL CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  end_time    text        NOT NULL CHECK (end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  breaks      jsonb       NOT NULL,
  -- the stream version of the shift's last event (what a decision relied on)
  version     integer     NOT NULL,
  defined_at  timestamptz NOT NULL,
  changed_at  timestamptz NOT NULL
);

-- A team's assignments: from valid_from on (until the team's next one), the rotation [shiftId | null, …], each
-- element days_each days (src/domain/shift-schedule.ts).
CREATE TABLE team_shift_assignments (
  team_code   text        NOT NULL,
  valid_from  date        NOT NULL,
  rotation    jsonb       NOT NULL,
  days_each   integer     NOT NULL CHECK (days_each >= 1),
  assigned_at timestamptz NOT NULL,
  PRIMARY KEY (team_code, valid_from)
);

-- A team's overrides: on that date the shift (null: a day off) instead of the assignment.
CREATE TABLE team_shift_overrides (
  team_code   text        NOT NULL,
  date        date        NOT NULL,
  shift_id    text,
  set_at      timestamptz NOT NULL,
  PRIMARY KEY (team_code, date)
);

-- The shift id the team works on local date d (null: a day off or nothing assigned), the rule of
-- src/domain/shift-schedule.ts `scheduledOn` in SQL (a test compares both): the override of d, else the rotation
-- element of the assignment in force on d.
CREATE FUNCTION team_shift_on(team text, d date) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM team_shift_overrides o WHERE o.team_code = team AND o.date = d)
      THEN (SELECT o.shift_id FROM team_shift_overrides o WHERE o.team_code = team AND o.date = d)
    ELSE (SELECT a.rotation ->> (((d - a.valid_from) / a.days_each) % jsonb_array_length(a.rotation))::int
            FROM team_shift_assignments a WHERE a.team_code = team AND a.valid_from <= d
           ORDER BY a.valid_from DESC LIMIT 1)
  END
$$;
