-- The quality read's daily sums (async projection src/projections/quality.ts), so the Pareto of a month
-- (GET /api/quality/defects) is an indexed range read rather than an expansion of every approved report's lines.
-- Placement keys are the codes, '' for none (key columns cannot be null), as in dashboard_daily (migrations/015).
-- The tables start empty: the projection has no checkpoint yet and builds them from the events at first start.

-- One row per PENDING report: its date, placement and lines, what its approval adds (forgotten on approval or
-- rejection, so the table stays as small as the review queue).
CREATE TABLE quality_report_contributions (
  report_id      uuid  PRIMARY KEY,
  report_date    date  NOT NULL,
  employee_phone text  NOT NULL,
  workshop_code  text,
  team_code      text,
  lines          jsonb NOT NULL
);

-- Defective pieces of approved lines per day, placement, reason (as recorded) and the reason's recorded category
-- (operator | material | other); reason_key '' with category '' are the pieces without a reason (未注明).
CREATE TABLE quality_daily_reasons (
  report_date  date   NOT NULL,
  workshop_key text   NOT NULL,
  team_key     text   NOT NULL,
  reason_key   text   NOT NULL,
  category     text   NOT NULL,
  qty          bigint NOT NULL,
  PRIMARY KEY (report_date, workshop_key, team_key, reason_key, category)
);

-- Defective and output pieces of approved lines per day, placement and one dimension: 'worker' (key: phone),
-- 'product' (key: product id; label 产品名称（工序） as recorded, one row per label a product was recorded with) and
-- 'device' (key: device no), 'workOrder' (key: the work order the line names, '' for none). The product rows of a day
-- sum to its totals. Key in the read's order: a dimension's
-- range of days is one index range (the projection's upserts infer the same index).
CREATE TABLE quality_daily_dims (
  dimension     text   NOT NULL CHECK (dimension IN ('worker', 'product', 'device', 'workOrder')),
  report_date   date   NOT NULL,
  workshop_key  text   NOT NULL,
  team_key      text   NOT NULL,
  key           text   NOT NULL,
  label         text   NOT NULL,
  defective_qty bigint NOT NULL,
  output_qty    bigint NOT NULL,
  PRIMARY KEY (dimension, report_date, workshop_key, team_key, key, label)
);

-- The 'worker' sums again per calendar month (month: its first day), so a range's whole months read one row per
-- worker and placement rather than one per day (queries/quality.ts: the days outside whole months from the daily rows).
CREATE TABLE quality_monthly_workers (
  month          date   NOT NULL,
  workshop_key   text   NOT NULL,
  team_key       text   NOT NULL,
  employee_phone text   NOT NULL,
  defective_qty  bigint NOT NULL,
  output_qty     bigint NOT NULL,
  PRIMARY KEY (month, workshop_key, team_key, employee_phone)
);
