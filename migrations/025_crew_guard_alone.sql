-- Crew work (班组报工): the crew lines naming one person, and the append's guard of a submission WITHOUT crew lines
-- (src/commands/facts.ts), the usual one.
--
-- crew_lines_naming(person, w_from, w_to, product_ids): the rows (as src/crew/sql.ts crewCoverageSql gives them) of
-- the crew lines of reports not rejected, overlapping [w_from, w_to), that count `person` for one of `product_ids`.
-- Looked up on the partial index reports_by_crew (migrations/021), which holds only reports with crew lines: where no
-- crew work is reported it costs next to nothing. The draft reads it for 已由 张三 班组报工.
CREATE FUNCTION crew_lines_naming(person text, w_from timestamptz, w_to timestamptz, product_ids bigint[])
  RETURNS TABLE (report_id text, submitter text, submitter_name text, product_id bigint, phone text, crew boolean)
  LANGUAGE sql STABLE AS $$
  SELECT c.report_id::text, c.employee_phone, (SELECT min(p.name) FROM personnel p WHERE p.phone = c.employee_phone),
         (l ->> 'productId')::bigint, person, true
    FROM reports c
    CROSS JOIN LATERAL jsonb_array_elements(c.lines) l
   WHERE jsonb_path_exists(c.lines, '$[*].shares')
     AND c.lines @> jsonb_build_array(jsonb_build_object('shares', jsonb_build_array(jsonb_build_object('phone', person))))
     AND c.status <> 'rejected' AND c.clock_in_at < w_to AND c.clock_out_at > w_from
     AND (l ->> 'productId')::bigint = ANY(product_ids)
     AND (l -> 'shares') @> jsonb_build_array(jsonb_build_object('phone', person))
$$;

-- crew_lines_name_nobody(person, w_from, w_to, product_ids): the guard of a submission without crew lines whose
-- submitter nothing counted when it was decided. Such a submission counts only its submitter, whose own reports cannot
-- overlap the session's window (one worker's sessions never overlap; a session is reported once; a rejected report
-- does not count), so only another's crew line can count them already. Under the submitter's advisory lock (the lock
-- crew_coverage_holds, migrations/021, takes for every person a crew line counts: two submissions counting the same
-- person run one after the other) and with a fresh snapshot (each statement of a VOLATILE function sees what
-- committed before it): true when crew_lines_naming has no row. Static SQL, planned once per connection.
CREATE FUNCTION crew_lines_name_nobody(person text, w_from timestamptz, w_to timestamptz, product_ids bigint[])
  RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1131570551, hashtext(person));
  RETURN NOT EXISTS (SELECT 1 FROM crew_lines_naming(person, w_from, w_to, product_ids));
END $$;
