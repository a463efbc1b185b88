-- Work orders (生产工单): the index of the reports by the orders their lines name (migrations/026) holds the reports
-- whose lines name one, now told by `lines @? '$[*].workOrderNo'` (a jsonpath test, under a microsecond) rather than
-- `report_work_orders(lines) <> '{}'` (a SQL function run by its own executor: ~13 µs), since PostgreSQL evaluates
-- the predicate on every insert and every non-HOT update of a report: each submission and each review paid for it.
-- Both say the same (a line with the key `workOrderNo`). The reads that use the index say it as the predicate does.
DROP INDEX reports_by_work_order;
CREATE INDEX reports_by_work_order ON reports USING gin (report_work_orders(lines)) WITH (fastupdate = off)
  WHERE lines @? '$[*].workOrderNo';

CREATE OR REPLACE FUNCTION work_order_reported_within(order_no text, reported text[]) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1464814415, hashtext('work-order-' || order_no));
  RETURN NOT EXISTS (SELECT 1 FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS l
                      WHERE r.lines @? '$[*].workOrderNo' AND report_work_orders(r.lines) && ARRAY[order_no]
                        AND l ->> 'workOrderNo' = order_no AND NOT (l ->> 'processName' = ANY(reported)));
END $$;

CREATE OR REPLACE FUNCTION work_order_progress_from_reports() RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  TRUNCATE work_order_progress, work_order_progress_workers, work_order_progress_days, work_order_report_lines;
  CREATE TEMPORARY TABLE work_order_lines_now ON COMMIT DROP AS
    SELECT r.report_id, r.employee_phone, r.report_date, r.status, x.n,
           x.l ->> 'workOrderNo' AS order_no, x.l ->> 'processName' AS process_name,
           (x.l ->> 'finishedQty')::bigint AS f, (x.l ->> 'defectiveQty')::bigint AS d
      FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) WITH ORDINALITY AS x(l, n)
     WHERE r.lines @? '$[*].workOrderNo' AND x.l ->> 'workOrderNo' IS NOT NULL;
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
