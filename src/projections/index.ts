/**
 * Every projection of the service. Inline ones run in the append's transaction; async ones run in the
 * background consumer loop of the leader instance. `npm run cli -- replay [name]` rebuilds them.
 */
import type { Projection } from './projection.ts';
import { sessionsProjection } from './sessions.ts';
import { reportsProjection } from './reports.ts';
import { auditLogProjection } from './audit-log.ts';
import { dashboardProjection } from './dashboard.ts';
import { productRatesProjection } from './product-rates.ts';
import { periodsProjection } from './periods.ts';
import { wagesProjection } from './wages.ts';
import { organizationProjection } from './organization.ts';
// shifts: shifts
import { shiftsProjection } from './shifts.ts';
import { scopesProjection } from './scopes.ts';
import { defectReasonsProjection } from './defect-reasons.ts';
import { workOrdersProjection } from './work-orders.ts';
import { workOrderProgressProjection } from './work-order-progress.ts';
import { stopReasonsProjection } from './stop-reasons.ts';
import { stopsProjection } from './stops.ts';
import { qualityProjection } from './quality.ts';

export const projections: Projection[] = [
  sessionsProjection,
  reportsProjection,
  auditLogProjection,
  dashboardProjection,
  productRatesProjection,
  periodsProjection,
  wagesProjection,
  // organization
  organizationProjection,
  // shifts: shifts
  shiftsProjection,
  // scopes
  scopesProjection,
  defectReasonsProjection,
  workOrdersProjection,
  // the work orders' progress per operation, summed as reports are submitted and reviewed
  workOrderProgressProjection,
  stopReasonsProjection,
  stopsProjection,
  // quality: the defects' daily sums
  qualityProjection,
];
