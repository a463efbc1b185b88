/**
 * Every route of the service, in the order they are matched. Each area keeps its routes in its own file.
 */
import type { AnyRoute } from '../route.ts';
import { documentRoutes, healthRoute } from './system.ts';
import { productRoutes } from './products.ts';
import { peopleRoutes } from './people.ts';
import { deviceRoutes } from './devices.ts';
import { authRoutes } from './auth.ts';
import { deviceCodeRoutes } from './device-codes.ts';
import { clockRoutes } from './clock.ts';
import { reportRoutes } from './reports.ts';
import { reviewRoutes } from './reviews.ts';
import { reportAdminRoutes } from './report-admin.ts';
import { dashboardRoutes } from './dashboard.ts';
import { webLoginRoutes } from './web-login.ts';
import { officeRoutes } from './office.ts';
import { rateRoutes } from './rates.ts';
import { wageRoutes } from './wages.ts';
import { periodRoutes } from './periods.ts';
import { organizationRoutes } from './organization.ts';
// shifts: shifts
import { shiftRoutes } from './shifts.ts';
import { defectReasonRoutes } from './defect-reasons.ts';
import { stopReasonRoutes } from './stop-reasons.ts';
import { stopRoutes } from './stops.ts';
import { oeeRoutes } from './oee.ts';
import { qualityRoutes } from './quality.ts';
import { workOrderRoutes } from './work-orders.ts';

export const routes: AnyRoute[] = [
  healthRoute,
  ...documentRoutes(() => routes),
  ...productRoutes,
  ...peopleRoutes,
  ...deviceRoutes,
  ...authRoutes,
  ...deviceCodeRoutes,
  ...clockRoutes,
  ...reportRoutes,
  ...reviewRoutes,
  ...reportAdminRoutes,
  ...dashboardRoutes,
  ...webLoginRoutes,
  ...officeRoutes,
  ...rateRoutes,
  ...wageRoutes,
  ...periodRoutes,
  // organization
  ...organizationRoutes,
  // shifts: shifts
  ...shiftRoutes,
  ...defectReasonRoutes,
  ...stopReasonRoutes,
  ...stopRoutes,
  ...oeeRoutes,
  ...qualityRoutes,
  ...workOrderRoutes,
];
