/**
 * The `product_rates` read model (migrations/011), inline: one row per product and effective date, written by
 * the rate command's own statement.
 *
 * RateSet (stream `product-<productId>`) writes the row of (productId, effectiveFrom) whole, replacing the entry
 * of the same date: rates in ten-thousandths of a yuan, `set_at` the event's `at`, `set_by_*` from the event's
 * metadata (who set it), the reason; `material_defect_rate` null when the entry has none (料废 at the defect rate).
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection } from './projection.ts';

const TABLE = 'product_rates';

export const productRatesProjection: Projection = {
  name: 'product-rates',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['product_id', 'effective_from'],
      columns: ['product_id', 'effective_from', 'piece_rate', 'defect_rate', 'material_defect_rate', 'set_at', 'set_by_phone', 'set_by_name', 'reason'],
    },
  ],
  eventTypes: ['RateSet'],
  // The row is written whole from the event, replacing any of the same date: nothing to read.
  touches: () => [],
  apply(event) {
    const d = event.data as EventData<'RateSet'>;
    return [
      {
        table: TABLE,
        key: [d.productId, d.effectiveFrom],
        row: {
          product_id: d.productId,
          effective_from: d.effectiveFrom,
          piece_rate: d.pieceRate,
          defect_rate: d.defectRate,
          material_defect_rate: d.materialDefectRate ?? null,
          set_at: new Date(d.at).toISOString(),
          set_by_phone: event.metadata.actorPhone ?? null,
          set_by_name: event.metadata.actorName ?? null,
          reason: d.reason ?? null,
        },
      },
    ];
  },
};
