-- Work orders (生产工单) and their operations (工序): the inline read model of the streams work-order-<orderNo>
-- (src/projections/work-orders.ts), the index of the reports by the orders their lines name, and the locks of the
-- rules across streams (src/commands/facts.ts: a cancel or an operation's removal against a report naming the order).
CREATE TABLE work_orders (
  order_no      text        PRIMARY KEY,
  project_no    text        NOT NULL,
  product_name  text        NOT NULL,
  planned_qty   bigint      NOT NULL,
  due_date      date,
  notes         text,
  -- the 工序 names in sequence (JSON array of text)
  operations    jsonb       NOT NULL,
  -- released 下达 (in progress: shown when a report names it), completed 完工, closed 关闭, cancelled 作废
  status        text        NOT NULL CHECK (status IN ('released', 'completed', 'closed', 'cancelled')),
  -- the reason of the last close or reopen
  status_reason text,
  released_at   timestamptz NOT NULL,
  changed_at    timestamptz NOT NULL,
  -- the version of its stream the row reflects (the audit trail's length)
  version       integer     NOT NULL
);
CREATE INDEX work_orders_by_due ON work_orders (due_date, order_no);
CREATE INDEX work_orders_open_by_product ON work_orders (project_no, product_name, due_date) WHERE status = 'released';

-- The distinct work order numbers a report's lines name (`workOrderNo`), {} for none.
CREATE FUNCTION report_work_orders(lines jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
  $$ SELECT COALESCE(array_agg(DISTINCT l ->> 'workOrderNo'), '{}') FROM jsonb_array_elements(lines) AS l WHERE l ? 'workOrderNo' $$;
-- fastupdate off: a pending list would be scanned whole by every read of an order's progress until the next vacuum.
CREATE INDEX reports_by_work_order ON reports USING gin (report_work_orders(lines)) WITH (fastupdate = off);

-- A submission's (or correction's) guard: each named order's lock SHARED, then its stream still at the version read,
-- read with a fresh snapshot (a cancel, a close, a change committed meanwhile refuses the append).
CREATE FUNCTION work_orders_hold(ids text[], versions bigint[]) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(1464814415, hashtext(x)) FROM (SELECT DISTINCT x FROM unnest(ids) AS x ORDER BY 1) s;
  RETURN NOT EXISTS (SELECT 1 FROM unnest(ids, versions) AS h(id, version)
                      WHERE (SELECT COALESCE(max(e.stream_version), 0) FROM events e WHERE e.stream_id = h.id) <> h.version);
END $$;

-- A cancel's or an operation removal's guard: the order's lock EXCLUSIVE, then no report names the order at a 工序
-- outside `reported` (those read when deciding), read with a fresh snapshot.
CREATE FUNCTION work_order_reported_within(order_no text, reported text[]) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1464814415, hashtext('work-order-' || order_no));
  RETURN NOT EXISTS (SELECT 1 FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS l
                      WHERE report_work_orders(r.lines) && ARRAY[order_no] AND l ->> 'workOrderNo' = order_no
                        AND NOT (l ->> 'processName' = ANY(reported)));
END $$;

-- The work order list is imported like the products and the people (src/work-orders/import.ts).
ALTER TABLE import_previews DROP CONSTRAINT import_previews_kind_check;
ALTER TABLE import_previews ADD CONSTRAINT import_previews_kind_check CHECK (kind IN ('products', 'people', 'work-orders'));
