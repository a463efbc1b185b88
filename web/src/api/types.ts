/**
 * Named types of the service's answers and request bodies, taken from the generated OpenAPI types
 * (./openapi.d.ts): when a route's schema changes, these change with it.
 */
import type { Answer, Body, Item, paths } from './openapi';

export type { Answer, Body, Item };

export type Account = Answer<'/api/auth/me', 'get'>;
export type Role = Account['role'];
export type Setup = Answer<'/api/auth/web-login/setup', 'get'>;
export type Product = Item<Answer<'/api/products', 'get'>>;
export type ProductBody = Body<'/api/products', 'post'>;
export type Person = Item<Answer<'/api/people', 'get'>>;
export type Device = Item<Answer<'/api/devices', 'get'>>;
export type ProductPreview = Answer<'/api/products/import', 'post'>;
export type PeoplePreview = Answer<'/api/people/import', 'post'>;
export type ImportResult = Answer<'/api/products/import/{importId}/confirm', 'post'>;
export type Report = Answer<'/api/reports/{reportId}', 'get'>;
export type ReportLine = Report['lines'][number];
/** A plausibility flag of a report (异常报工): code, Chinese sentence, figures. */
export type Flag = Report['flags'][number];
export type LineInput = NonNullable<Body<'/api/reviews/{reportId}/approve', 'post'>['lines']>[number];
export type AuditEntry = Item<Answer<'/api/reports/{reportId}/audit-logs', 'get'>>;
export type DashboardRow = Item<Answer<'/api/dashboard/reports', 'get'>>;
export type DashboardSummary = Answer<'/api/dashboard/summary', 'get'>;
export type RateHistory = Answer<'/api/products/{productId}/rates', 'get'>['items'];
export type RateBody = Body<'/api/products/{productId}/rates', 'post'>;
export type WageSummary = Answer<'/api/wages', 'get'>;
export type WorkerWage = Item<WageSummary>;
export type WageStatement = Answer<'/api/wages/{phone}', 'get'>;
export type Period = Item<Answer<'/api/periods', 'get'>>;
export type CloseAnswer = Answer<'/api/periods/{month}/close', 'post'>;
// organization
export type Workshop = Item<Answer<'/api/workshops', 'get'>>;
export type TeamMember = Item<Answer<'/api/teams/{code}/members', 'get'>>;
export type Membership = Item<Answer<'/api/people/{phone}/memberships', 'get'>>;
// shifts: shifts
export type Shift = Item<Answer<'/api/shifts', 'get'>>;
export type ShiftBody = Body<'/api/shifts', 'post'>;
export type CalendarDay = Item<Answer<'/api/teams/{code}/shift-calendar', 'get'>>;
export type TeamSchedule = Answer<'/api/teams/{code}/shift-schedule', 'get'>;
// defect reasons and the quality read
export type DefectReason = Item<Answer<'/api/defect-reasons', 'get'>>;
export type DefectCategory = DefectReason['category'];
export type QualityPareto = Answer<'/api/quality/defects', 'get'>;
export type ParetoItem = QualityPareto['items'][number];
export type QualityGroup = NonNullable<NonNullable<paths['/api/quality/defects']['get']['parameters']['query']>['groupBy']>;
export type LineDefect = NonNullable<ReportLine['defects']>[number];
/** A work order (生产工单) with its progress per operation. */
export type WorkOrder = Item<Answer<'/api/work-orders', 'get'>>;
export type WorkOrderBody = Body<'/api/work-orders', 'post'>;
export type WorkOrderPreview = Answer<'/api/work-orders/import', 'post'>;
// downtime and OEE
export type StopReason = Item<Answer<'/api/stop-reasons', 'get'>>;
export type StopCategory = StopReason['category'];
export type Stop = Item<Answer<'/api/stops', 'get'>>;
export type OeeReport = Answer<'/api/oee', 'get'>;
export type OeeFigures = OeeReport['totals'];
export type OeeItem = OeeReport['items'][number];
export type OeeLosses = Answer<'/api/oee/losses', 'get'>;
export type OeeLoss = OeeLosses['items'][number];
