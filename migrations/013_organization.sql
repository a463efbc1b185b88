-- Issue #24: workshops, teams, memberships, device workshops (issue #24; filled by its organization part). Placeholder so that migration numbers stay consecutive on every branch.
SELECT 1;
