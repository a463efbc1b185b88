-- Issue #24 part A: workshops (车间), teams (班组), team memberships with their dates, and devices' workshops.
-- Inline projection of the workshop-<code>, team-<code>, member-<phone> and device-<deviceNo> streams
-- (src/projections/organization.ts). Dates are local dates in APP_TIMEZONE. No foreign keys: a read model is
-- rebuilt table by table (replay), the streams keep the references valid (a team's workshop and a membership's
-- team are facts of their commands, and nothing is ever removed).

CREATE TABLE workshops (
  code       text        PRIMARY KEY,
  name       text        NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE teams (
  code          text        PRIMARY KEY,
  name          text        NOT NULL,
  workshop_code text        NOT NULL,
  -- phones of the team's leaders (班组长), in order
  leaders       text[]      NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX teams_by_workshop ON teams (workshop_code);

-- A worker's membership of a team from valid_from to valid_to inclusive (null: open). At most one membership of a
-- phone covers any date (the member-<phone> stream decides it). A worker's team on local date D:
--   valid_from <= D AND (valid_to IS NULL OR valid_to >= D)   (src/queries/organization.ts teamOnDateSql)
-- The key serves "team of a phone on a date" (phone, then valid_from <= D descending).
CREATE TABLE team_memberships (
  phone      text        NOT NULL,
  valid_from date        NOT NULL,
  team_code  text        NOT NULL,
  valid_to   date        CHECK (valid_to IS NULL OR valid_to >= valid_from),
  PRIMARY KEY (phone, valid_from)
);
-- the members of a team on a date
CREATE INDEX team_memberships_by_team ON team_memberships (team_code, valid_from);

-- A device's workshop (no row: in no workshop). A device exists while some product uses it (products.device_no).
CREATE TABLE device_workshops (
  device_no     text        PRIMARY KEY,
  workshop_code text        NOT NULL,
  set_at        timestamptz NOT NULL
);
CREATE INDEX device_workshops_by_workshop ON device_workshops (workshop_code);
