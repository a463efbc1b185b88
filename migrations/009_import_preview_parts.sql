-- Issue #14 (item 8: an import never holds other requests up): a preview's rows are stored in parts of at most
-- 2,000 rows, one statement each, so that a 50,000-row preview never binds 13 MB of JSON in a single statement on
-- the event loop. `list` is create, update or unchanged; parts are read back in `part` order.
CREATE TABLE import_preview_rows (
  import_id uuid    NOT NULL REFERENCES import_previews (import_id) ON DELETE CASCADE,
  part      integer NOT NULL,
  list      text    NOT NULL CHECK (list IN ('create', 'update', 'unchanged')),
  -- json, not jsonb: stored and read back whole, never queried inside
  rows      json    NOT NULL,
  PRIMARY KEY (import_id, part)
);

INSERT INTO import_preview_rows (import_id, part, list, rows)
SELECT p.import_id, l.part, l.list, COALESCE(p.rows -> l.list, '[]'::json)
  FROM import_previews p, (VALUES (0, 'create'), (1, 'update'), (2, 'unchanged')) AS l(part, list);

ALTER TABLE import_previews DROP COLUMN rows;
