-- Products (spec 2.1) and personnel (spec 2.2): reference data maintained by import and single-record edits
-- (issue #3). Rules on the values live in src/products/rules.ts and src/people/rules.ts; the checks here are
-- the last line of defence.
CREATE TABLE products (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_no             text NOT NULL CHECK (project_no <> ''),
  profile_no             text,
  product_name           text NOT NULL CHECK (product_name <> ''),
  material_code          text,
  material_name          text,
  device_no              text NOT NULL CHECK (device_no <> ''),
  process_name           text NOT NULL CHECK (process_name <> ''),
  stamping_method        text,
  operator_count         integer CHECK (operator_count >= 0),
  -- seconds, 3 decimals
  standard_cycle_seconds numeric(12, 3) NOT NULL CHECK (standard_cycle_seconds > 0),
  -- pieces per 8-hour day; floor(28800 / standard_cycle_seconds) unless given
  standard_workload      integer NOT NULL CHECK (standard_workload >= 0),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT products_unique_key UNIQUE (project_no, product_name, device_no, process_name)
);
CREATE INDEX products_device_no ON products (device_no);

-- One record per phone + role; one phone is bound to exactly one name.
CREATE TABLE personnel (
  phone      text NOT NULL CHECK (phone ~ '^1[0-9]{10}$'),
  name       text NOT NULL CHECK (name <> ''),
  role       text NOT NULL CHECK (role IN ('worker', 'admin', 'manager')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (phone, role)
);

-- Two-phase spreadsheet import (decisions.md "Spreadsheet import"): the preview is stored here so that any
-- API instance can confirm it. `rows` holds the checked rows (create, update, unchanged); `fingerprint` is the
-- SHA-256 of the existing records those rows touch, recomputed at confirmation to refuse a stale preview.
CREATE TABLE import_previews (
  import_id    uuid PRIMARY KEY,
  kind         text        NOT NULL CHECK (kind IN ('products', 'people')),
  -- phone of the uploader; NULL for the command line
  created_by   text,
  file_name    text,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  fingerprint  text        NOT NULL,
  counts       json        NOT NULL,
  -- json, not jsonb: stored and read back whole, never queried inside
  rows         json        NOT NULL,
  confirmed_at timestamptz
);
CREATE INDEX import_previews_expires_at ON import_previews (expires_at);
