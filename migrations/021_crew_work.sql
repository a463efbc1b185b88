-- Crew work (班组报工 / 多人作业; src/domain/crew-split.ts, docs/decisions.md "Crew work").
-- A team member's coefficient (系数) during a membership, in hundredths (0.10 … 9.99; 1.00 when none was given and
-- in memberships recorded before coefficients existed). Written by the organization projection from
-- MembershipStarted / MembershipEnded.
ALTER TABLE team_memberships ADD COLUMN coefficient integer NOT NULL DEFAULT 100 CHECK (coefficient BETWEEN 10 AND 999);

-- Who was on a device during a window (src/crew/sql.ts crewPresenceSql): sessions by clock-in. clock_in_at never
-- changes after the insert, so a session's later updates (换设备, 下班) stay HOT updates.
CREATE INDEX sessions_by_clock_in ON sessions (clock_in_at);
-- (The lines already counting a person for a product in a window, crewCoverageSql, are found by report date through
-- reports_by_date of migrations/011.)

-- Wages (src/projections/wages.ts): a crew line's approval writes one row per member (member_no 1…; 0 for any other
-- line) with the member's share, the whole line beside it (crew: its quantities, reasons, amount and shares).
ALTER TABLE wage_lines ADD COLUMN member_no integer NOT NULL DEFAULT 0, ADD COLUMN crew jsonb;
ALTER TABLE wage_lines DROP CONSTRAINT wage_lines_pkey;
ALTER TABLE wage_lines ADD PRIMARY KEY (report_id, line_no, member_no);

-- 我的报工 (src/queries/my-reports.ts): the reports whose crew line counts a worker, found by containment in their
-- lines; only reports with a crew line are indexed.
CREATE INDEX reports_by_crew ON reports USING gin (lines jsonb_path_ops) WHERE jsonb_path_exists(lines, '$[*].shares');

-- The dashboard (src/projections/dashboard.ts): a pending report's crew lines, whose members' shares its approval
-- adds to their days.
ALTER TABLE dashboard_report_contributions ADD COLUMN crew_lines jsonb;

-- A submission's guard (src/commands/facts.ts): the people its lines count (the submitter, a crew line's members)
-- locked for the transaction, in a fixed order, then the lines already counting them (`coverage`, the query of
-- src/crew/sql.ts crewCoverageSql over $1 window from, $2 window to, $3 product ids, $4 phones) counted with a fresh
-- snapshot: two submissions counting the same person run one after the other, so the second sees the first.
CREATE FUNCTION crew_coverage_holds(coverage text, w_from timestamptz, w_to timestamptz, product_ids bigint[], phones text[], expected bigint)
  RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE n bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(1131570551, hashtext(x)) FROM (SELECT DISTINCT x FROM unnest(phones) AS x ORDER BY 1) s;
  EXECUTE 'SELECT count(*) FROM (' || coverage || ') c' INTO n USING w_from, w_to, product_ids, phones;
  RETURN n = expected;
END $$;
