-- Defect reasons (不良原因): the inline read model of the streams defect-reason-<code>
-- (src/projections/defect-reasons.ts). A reason in use is deactivated, never deleted.
CREATE TABLE defect_reasons (
  code        text        PRIMARY KEY,
  name        text        NOT NULL,
  -- operator 工废, material 料废, other 其他 (src/domain/defect-reasons.ts)
  category    text        NOT NULL CHECK (category IN ('operator', 'material', 'other')),
  active      boolean     NOT NULL,
  defined_at  timestamptz NOT NULL,
  changed_at  timestamptz NOT NULL
);

-- 料废单价 of a rate entry, ten-thousandths of a yuan (src/domain/money.ts); null: the entry has none, and 料废 is
-- priced at defect_rate, as every entry set before it existed.
ALTER TABLE product_rates ADD COLUMN material_defect_rate bigint;

-- The wage lines keep a line's defect reasons as recorded (category included) and the 料废单价 they were priced at
-- (src/projections/wages.ts). Lines priced before: no reasons, 料废单价 = 不良单价 (what a replay writes).
ALTER TABLE wage_lines ADD COLUMN material_defect_rate bigint, ADD COLUMN defects jsonb;
UPDATE wage_lines SET material_defect_rate = defect_rate WHERE defect_rate IS NOT NULL;
