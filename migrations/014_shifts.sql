-- Issue #24: shifts, their assignments to teams and overrides (issue #24; filled by its shifts part). Placeholder so that migration numbers stay consecutive on every branch.
SELECT 1;
