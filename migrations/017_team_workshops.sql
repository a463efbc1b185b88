-- Which workshop a team belongs to, dated like a membership: a team moved to another workshop from a day keeps its
-- past under the old one (the members' history, the placement of a report submitted later for an earlier day).
-- Inline projection of the team-<code> streams (src/projections/organization.ts): TeamDefined gives the row from
-- the team's beginning ('-infinity'); TeamChanged with a move gives a row from its first day (`workshopFrom`); a
-- TeamChanged recorded before moves were dated (no `workshopFrom`) counts from the beginning, as it did then.
-- The workshop of team T on local date D: the row of T with the greatest valid_from <= D. `teams.workshop_code`
-- stays the team's workshop now.
CREATE TABLE team_workshops (
  team_code     text NOT NULL,
  valid_from    date NOT NULL,
  workshop_code text NOT NULL,
  PRIMARY KEY (team_code, valid_from)
);

INSERT INTO team_workshops (team_code, valid_from, workshop_code) SELECT code, '-infinity', workshop_code FROM teams;
