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
