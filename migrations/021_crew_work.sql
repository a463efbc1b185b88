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
