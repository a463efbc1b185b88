-- Placeholder so that this branch's migrations stay consecutive (postgres-migrations requires it): number 010
-- belongs to issue #21 (010_plausibility_flags.sql). On merge, delete this file; 011 follows #21's 010.
SELECT 1;
