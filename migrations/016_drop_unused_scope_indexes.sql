-- Issue #24, the clock cycle's figure: every submission wrote two more index entries for the pending queue of a
-- scoped reviewer (migrations/015), which reads pending reports in submission order through
-- reports_pending_by_submission and checks the scope on each (src/queries/reviews.ts). The scoped queue's p95 with
-- and without them is in bench/README.md "Scoped readers"; the worker's path does not pay for them.
DROP INDEX reports_pending_by_workshop;
DROP INDEX reports_pending_by_team;
