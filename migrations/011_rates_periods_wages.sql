-- Issue #22: piece rates, the monthly close (月结) and piece-rate wages. Money is integers: rates in
-- ten-thousandths of a yuan, amounts in fen; sums of amounts are numeric (exact, never a float).

-- Rates per product and effective date: inline projection of the product-<id> streams
-- (src/projections/product-rates.ts). A rate holds from effective_from until the next row of its product.
CREATE TABLE product_rates (
  product_id     bigint      NOT NULL,
  effective_from date        NOT NULL,
  piece_rate     bigint      NOT NULL CHECK (piece_rate >= 0),
  defect_rate    bigint      NOT NULL,
  set_at         timestamptz NOT NULL,
  set_by_phone   text,
  set_by_name    text,
  reason         text,
  PRIMARY KEY (product_id, effective_from)
);

-- Months as their closes and reopens leave them: inline projection of the period-YYYY-MM streams
-- (src/projections/periods.ts). No row: the month was never closed (open, version 0).
CREATE TABLE periods (
  month           text        PRIMARY KEY CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  status          text        NOT NULL CHECK (status IN ('open', 'closed')),
  -- closes so far (the version of the last close)
  version         integer     NOT NULL,
  closed_at       timestamptz,
  closed_by_phone text,
  closed_by_name  text,
  -- the last close's figures
  amount_fen      numeric     NOT NULL,
  workers         integer     NOT NULL,
  -- every close and reopen: [{action, version, at, byPhone, byName, amountFen, reason?}]
  history         jsonb       NOT NULL
);

-- The month lock (issue #22, "a close racing an approval ends with the approval in the closed figures or
-- refused"). A write into a month takes the month's advisory lock SHARED inside its own statement's guard and
-- then reads the month's status with a FRESH snapshot: a VOLATILE function gets a new snapshot for each query
-- it runs, whereas the calling statement's snapshot was taken when it started, maybe before a close it waited
-- for committed. The close takes the same lock EXCLUSIVE in its transaction (waiting for every write that holds
-- it to commit), then computes its figures in a new statement, then appends PeriodClosed and commits.
-- Lock keys: class 0x53485052 ("SHPR"), object year × 12 + month − 1.
CREATE FUNCTION month_lock_key(month text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT AS
  $$ SELECT (substr(month, 1, 4)::integer * 12 + substr(month, 6, 2)::integer - 1) $$;

-- True when none of `months` is closed; each is first locked SHARED, in month order (a write into several
-- months never waits on a close in a cycle).
CREATE FUNCTION months_open(months text[]) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF cardinality(months) = 1 THEN
    -- a submission, a review, a rate: one month (the common case, without the sort)
    PERFORM pg_advisory_xact_lock_shared(1397248082, month_lock_key(months[1]));
  ELSE
    PERFORM pg_advisory_xact_lock_shared(1397248082, month_lock_key(m)) FROM (SELECT DISTINCT x AS m FROM unnest(months) AS x ORDER BY 1) s;
  END IF;
  RETURN NOT EXISTS (SELECT 1 FROM periods p WHERE p.month = ANY(months) AND p.status = 'closed');
END $$;

-- The close's and the reopen's exclusive lock on `month`, held to the end of the transaction.
CREATE FUNCTION lock_month_exclusive(month text) RETURNS void LANGUAGE sql VOLATILE AS
  $$ SELECT pg_advisory_xact_lock(1397248082, month_lock_key(month)) $$;

-- Reports by date (a month's reports for the close; the months that have reports) and pending ones by date.
CREATE INDEX reports_by_date ON reports (report_date);
CREATE INDEX reports_pending_by_date ON reports (report_date) WHERE status = 'pending';

-- Wages: async projection of the report, product and period streams (src/projections/wages.ts).
-- The rates as the projection knows them, per product: [{from, pieceRate, defectRate}] by date.
CREATE TABLE wage_rates (
  product_id bigint PRIMARY KEY,
  rates      jsonb  NOT NULL
);
-- Pending reports' lines (what an approval without correction approves).
CREATE TABLE wage_pending (
  report_id      uuid PRIMARY KEY,
  month          text NOT NULL,
  report_date    date NOT NULL,
  employee_phone text NOT NULL,
  lines          jsonb NOT NULL
);
-- One row per line of an approved report, priced at the rates in force on its report date (null: unpriced).
CREATE TABLE wage_lines (
  report_id      uuid    NOT NULL,
  line_no        integer NOT NULL,
  month          text    NOT NULL,
  report_date    date    NOT NULL,
  employee_phone text    NOT NULL,
  product_id     bigint  NOT NULL,
  project_no     text    NOT NULL,
  product_name   text    NOT NULL,
  device_no      text    NOT NULL,
  process_name   text    NOT NULL,
  finished_qty   bigint  NOT NULL,
  defective_qty  bigint  NOT NULL,
  piece_rate     bigint,
  defect_rate    bigint,
  amount_fen     bigint,
  PRIMARY KEY (report_id, line_no)
);
CREATE INDEX wage_lines_statement ON wage_lines (month, employee_phone, report_date, report_id, line_no);
CREATE INDEX wage_lines_by_product ON wage_lines (product_id, report_date);
-- Per month and worker: sums of the approved reports; the amounts at the last close and the one before.
CREATE TABLE wage_workers (
  month               text    NOT NULL,
  employee_phone      text    NOT NULL,
  reports             integer NOT NULL,
  finished_qty        bigint  NOT NULL,
  defective_qty       bigint  NOT NULL,
  amount_fen          numeric NOT NULL,
  unpriced_lines      integer NOT NULL,
  closed_amount_fen   numeric,
  previous_amount_fen numeric,
  PRIMARY KEY (month, employee_phone)
);
-- Per month: the totals, and the month as the projection prices it (closed: at the rates the close pinned,
-- {productId: [{from, pieceRate, defectRate}]}).
CREATE TABLE wage_months (
  month           text    PRIMARY KEY,
  reports         integer NOT NULL,
  finished_qty    bigint  NOT NULL,
  defective_qty   bigint  NOT NULL,
  amount_fen      numeric NOT NULL,
  unpriced_lines  integer NOT NULL,
  workers         integer NOT NULL,
  status          text    NOT NULL CHECK (status IN ('open', 'closed')),
  version         integer NOT NULL,
  pinned          jsonb
);
