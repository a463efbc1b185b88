-- Issue #24: reviewers' and managers' scopes and the scope rule's read-model columns (issue #24; filled by its scope part). Placeholder so that migration numbers stay consecutive on every branch.
SELECT 1;
