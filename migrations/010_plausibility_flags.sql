-- Issue #21: plausibility flags (异常报工) in the read models. The flags are decided with the figures and carried
-- by the report stream's events (src/domain/plausibility.ts, src/events/catalog.ts); reports written before have
-- none, as their events (read as version 2 with no flags) say.
-- reports: the flags of the report's figures as they stand (the review queue marks and filters by them).
ALTER TABLE reports ADD COLUMN flags jsonb NOT NULL DEFAULT '[]'::jsonb;
-- dashboard_daily: the approved reports of the day and employee that carry flags, [{reportId, flags}], so that the
-- dashboard shows 异常 instead of a figure that cannot be true (src/projections/dashboard.ts).
ALTER TABLE dashboard_daily ADD COLUMN flagged jsonb NOT NULL DEFAULT '[]'::jsonb;
