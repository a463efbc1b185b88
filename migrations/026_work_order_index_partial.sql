-- Work orders (生产工单): the index of the reports by the orders their lines name holds only the reports that name
-- one. It held every report, those naming none under GIN's one "empty" entry, which every submission without an
-- order added to (fastupdate off: at once, all of them on the same index pages, one after the other).
DROP INDEX reports_by_work_order;
CREATE INDEX reports_by_work_order ON reports USING gin (report_work_orders(lines)) WITH (fastupdate = off)
  WHERE report_work_orders(lines) <> '{}';

-- A cancel's or an operation removal's guard (migrations/019), reading through the index above.
CREATE OR REPLACE FUNCTION work_order_reported_within(order_no text, reported text[]) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1464814415, hashtext('work-order-' || order_no));
  RETURN NOT EXISTS (SELECT 1 FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS l
                      WHERE report_work_orders(r.lines) <> '{}' AND report_work_orders(r.lines) && ARRAY[order_no]
                        AND l ->> 'workOrderNo' = order_no AND NOT (l ->> 'processName' = ANY(reported)));
END $$;
