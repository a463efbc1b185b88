-- Crew work (班组报工 / 多人作业; src/domain/crew-split.ts, docs/decisions.md "Crew work").
-- A team member's coefficient (系数) during a membership, in hundredths (0.10 … 9.99; 1.00 when none was given and
-- in memberships recorded before coefficients existed). Written by the organization projection from
-- MembershipStarted / MembershipEnded.
ALTER TABLE team_memberships ADD COLUMN coefficient integer NOT NULL DEFAULT 100 CHECK (coefficient BETWEEN 10 AND 999);
