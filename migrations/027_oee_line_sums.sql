-- The OEE read's approved report lines (src/queries/oee.ts, the dates computed live: today, dates not kept yet):
-- oee_line_sums(device_nos, first_date, last_date) gives, per report date and device of `device_nos`, the sums of the
-- approved lines of reports dated first_date … last_date (text, exact): ideal_ms (round(standard cycle s × 1000) ×
-- (finished + defective)), fp_ms (the same × finished), good (finished), total (finished + defective).
--
-- Planned serially (SET max_parallel_workers_per_gather = 0): the planner takes every report for 100 lines (the
-- estimate of jsonb_array_elements) and so plans a parallel aggregate for a day's few thousand reports; the serial
-- read of a day takes about 3 ms, starting a parallel worker costs 5–20 ms more on a busy server. The lines' devices are
-- matched by a hash join on the distinct `device_nos` (= ANY of a parameter compares with every element: 6 ms for a
-- day of 200 devices). Static SQL; a function with a SET clause is not inlined, so the setting holds for its
-- statement only.
CREATE FUNCTION oee_line_sums(device_nos text[], first_date date, last_date date)
  RETURNS TABLE (date text, device_no text, ideal_ms text, fp_ms text, good text, total text)
  LANGUAGE sql STABLE SET max_parallel_workers_per_gather = 0 AS $$
  SELECT r.report_date::text, x.line ->> 'deviceNo',
         sum(round((x.line ->> 'standardCycleSeconds')::numeric * 1000) * ((x.line ->> 'finishedQty')::bigint + (x.line ->> 'defectiveQty')::bigint))::text,
         sum(round((x.line ->> 'standardCycleSeconds')::numeric * 1000) * (x.line ->> 'finishedQty')::bigint)::text,
         sum((x.line ->> 'finishedQty')::bigint)::text,
         sum((x.line ->> 'finishedQty')::bigint + (x.line ->> 'defectiveQty')::bigint)::text
    FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS x(line)
    JOIN (SELECT DISTINCT unnest(oee_line_sums.device_nos)) AS d(device_no) ON d.device_no = x.line ->> 'deviceNo'
   WHERE r.status = 'approved' AND r.report_date BETWEEN oee_line_sums.first_date AND oee_line_sums.last_date
   GROUP BY 1, 2
$$;
