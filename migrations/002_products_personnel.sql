-- Products (spec 2.1) and personnel (spec 2.2): reference data maintained by import and single-record edits.
CREATE TABLE products (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_no             text NOT NULL,
  profile_no             text,
  product_name           text NOT NULL,
  material_code          text,
  material_name          text,
  device_no              text NOT NULL,
  process_name           text NOT NULL,
  stamping_method        text,
  operator_count         integer CHECK (operator_count >= 0),
  standard_cycle_seconds numeric(12, 3) NOT NULL CHECK (standard_cycle_seconds > 0),
  standard_workload      integer NOT NULL CHECK (standard_workload >= 0),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT products_unique_key UNIQUE (project_no, product_name, device_no, process_name)
);
CREATE INDEX products_device_no ON products (device_no);

-- One record per phone + role; one phone is bound to exactly one name.
CREATE TABLE personnel (
  phone      text NOT NULL CHECK (phone ~ '^1[0-9]{10}$'),
  name       text NOT NULL,
  role       text NOT NULL CHECK (role IN ('worker', 'admin', 'manager')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (phone, role)
);
