-- Event store (issue #2): one events table and the checkpoints of asynchronous consumers. A stream's version
-- is its last stream_version; the unique (stream_id, stream_version) decides concurrent appends. Async readers page by (transaction_id, global_position) below
-- pg_snapshot_xmin(pg_current_snapshot()), so an event whose transaction commits late is never skipped.
CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream_id       text        NOT NULL,
  stream_version  bigint      NOT NULL CHECK (stream_version > 0),
  event_type      text        NOT NULL,
  schema_version  integer     NOT NULL DEFAULT 1,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  CONSTRAINT events_stream_version_unique UNIQUE (stream_id, stream_version)
);

CREATE INDEX events_transaction_position ON events (transaction_id, global_position);

CREATE TABLE projection_checkpoints (
  name            text PRIMARY KEY,
  transaction_id  xid8   NOT NULL DEFAULT '0'::xid8,
  global_position bigint NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
