-- The progress of the work orders per order and operation, kept as sums (inline projection
-- src/projections/work-order-progress.ts, written in the same statement as the report events), so that the order
-- list, one order and the report draft read a few rows instead of summing the reports' lines at read time.
-- Filled here from the `reports` read model as it stands (the figures the progress was summed from before); a
-- replay (`npm run cli -- replay work-order-progress`) rebuilds the same rows from the events.

-- Per order and 工序: pieces of approved and of pending reports; `reports` the distinct reports naming the pair
-- (approved and pending), `named_reports` the same with rejected ones (an order named by any report is in progress).
CREATE TABLE work_order_progress (
  order_no               text   NOT NULL,
  process_name           text   NOT NULL,
  approved_finished_qty  bigint NOT NULL,
  approved_defective_qty bigint NOT NULL,
  pending_finished_qty   bigint NOT NULL,
  pending_defective_qty  bigint NOT NULL,
  reports                bigint NOT NULL,
  named_reports          bigint NOT NULL,
  PRIMARY KEY (order_no, process_name)
);

-- Per order, 工序 and worker: the worker's reports naming the pair (approved and pending); 0 when none is left.
CREATE TABLE work_order_progress_workers (
  order_no       text   NOT NULL,
  process_name   text   NOT NULL,
  employee_phone text   NOT NULL,
  reports        bigint NOT NULL,
  PRIMARY KEY (order_no, process_name, employee_phone)
);

-- Per order, 工序 and report date: the day's reports naming the pair (approved and pending); 0 when none is left.
CREATE TABLE work_order_progress_days (
  order_no     text   NOT NULL,
  process_name text   NOT NULL,
  report_date  date   NOT NULL,
  reports      bigint NOT NULL,
  PRIMARY KEY (order_no, process_name, report_date)
);

-- Per PENDING report naming an order: its lines naming one ({workOrderNo, processName, finishedQty, defectiveQty}),
-- what its approval moves to approved and its rejection takes away.
CREATE TABLE work_order_report_lines (
  report_id uuid  PRIMARY KEY,
  lines     jsonb NOT NULL
);

-- The four tables refilled from the `reports` read model (this migration's backfill; the benchmark, which writes
-- reports straight into that model, calls it too). Rejected reports count only in `named_reports`.
CREATE FUNCTION work_order_progress_from_reports() RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  TRUNCATE work_order_progress, work_order_progress_workers, work_order_progress_days, work_order_report_lines;
  CREATE TEMPORARY TABLE work_order_lines_now ON COMMIT DROP AS
    SELECT r.report_id, r.employee_phone, r.report_date, r.status, x.n,
           x.l ->> 'workOrderNo' AS order_no, x.l ->> 'processName' AS process_name,
           (x.l ->> 'finishedQty')::bigint AS f, (x.l ->> 'defectiveQty')::bigint AS d
      FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) WITH ORDINALITY AS x(l, n)
     WHERE report_work_orders(r.lines) <> '{}' AND x.l ->> 'workOrderNo' IS NOT NULL;
  INSERT INTO work_order_progress
    SELECT order_no, process_name,
           COALESCE(sum(f) FILTER (WHERE status = 'approved'), 0), COALESCE(sum(d) FILTER (WHERE status = 'approved'), 0),
           COALESCE(sum(f) FILTER (WHERE status = 'pending'), 0), COALESCE(sum(d) FILTER (WHERE status = 'pending'), 0),
           count(DISTINCT report_id) FILTER (WHERE status <> 'rejected'), count(DISTINCT report_id)
      FROM work_order_lines_now GROUP BY 1, 2;
  INSERT INTO work_order_progress_workers
    SELECT order_no, process_name, employee_phone, count(DISTINCT report_id)
      FROM work_order_lines_now WHERE status <> 'rejected' GROUP BY 1, 2, 3;
  INSERT INTO work_order_progress_days
    SELECT order_no, process_name, report_date, count(DISTINCT report_id)
      FROM work_order_lines_now WHERE status <> 'rejected' GROUP BY 1, 2, 3;
  INSERT INTO work_order_report_lines
    SELECT report_id, jsonb_agg(jsonb_build_object('workOrderNo', order_no, 'processName', process_name, 'finishedQty', f, 'defectiveQty', d) ORDER BY n)
      FROM work_order_lines_now WHERE status = 'pending' GROUP BY 1;
  DROP TABLE work_order_lines_now;
END $$;

SELECT work_order_progress_from_reports();
