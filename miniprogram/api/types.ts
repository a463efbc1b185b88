/**
 * Named types of the service's answers and request bodies, taken from `./openapi.d.ts`, which is generated from the
 * service's OpenAPI document (`npm run typecheck:miniprogram`: web/scripts/api-types.ts, then `tsc --noEmit -p
 * miniprogram`, part of `npm test`). When a route's schema changes, these change with it and the pages stop
 * type-checking instead of breaking on a phone. Types only: nothing here exists at run time.
 */
import type { Answer, Body, Item } from './openapi';

export type LoginAnswer = Answer<'/api/auth/platform-login', 'post'>;
export type LoginOk = Extract<LoginAnswer, { status: 'ok' }>;
export type Account = Answer<'/api/auth/me', 'get'>;
export type Role = Account['role'];
export type Setup = Answer<'/api/auth/web-login/setup', 'get'>;
export type ClockState = Answer<'/api/clock/state', 'get'>;
export type SessionAnswer = Answer<'/api/clock/start', 'post'>;
export type FinishAnswer = Answer<'/api/clock/finish', 'post'>;
export type DeviceBody = Body<'/api/clock/start', 'post'>;
export type Draft = Answer<'/api/reports/draft', 'get'>;
export type Candidate = Draft['candidates'][number];
export type SubmitBody = Body<'/api/reports', 'post'>;
export type Submitted = Answer<'/api/reports', 'post'>;
export type MyReports = Answer<'/api/reports/mine', 'get'>;
export type MyReport = Item<MyReports>;
export type ReportItem = Item<Answer<'/api/reviews/pending', 'get'>>;
export type ReportLine = ReportItem['lines'][number];
export type ReviewAnswer = Answer<'/api/reviews/{reportId}/approve', 'post'>;
/** A product of `GET /api/products` (a correction's added line is one of the report's devices' products). */
export type ProductItem = Item<Answer<'/api/products', 'get'>>;
export type DashboardRow = Item<Answer<'/api/dashboard/reports', 'get'>>;
export type DashboardSummary = Answer<'/api/dashboard/summary', 'get'>;
export type ConfirmAnswer = Answer<'/api/auth/web-login/confirm', 'post'>;
/** 我的工资 (`GET /api/wages/mine`): amounts as text with 2 decimals, rates with 4, `previousAmount` after a reopen and a new close. */
export type MineWages = Answer<'/api/wages/mine', 'get'>;
export type WageReport = MineWages['reports'][number];
export type WageLine = WageReport['lines'][number];
/** A plausibility flag of a report (异常报工): `code`, the Chinese `message` with its numbers, the figures. */
export type Flag = ReportItem['flags'][number];
/** A defect reason (不良原因) of `GET /api/defect-reasons`: code, name, category (operator 工废, material 料废, other 其他), active. */
export type DefectReasonItem = Item<Answer<'/api/defect-reasons', 'get'>>;
/** A work order with its progress (`GET /api/work-orders`, `GET /api/work-orders/{orderNo}`): status, late, goodQty, completionPct, operations. */
export type WorkOrderItem = Item<Answer<'/api/work-orders', 'get'>>;
export type WorkOrderDetail = Answer<'/api/work-orders/{orderNo}', 'get'>;
/** A report line's crew share as recorded (`shares` of a line of `GET /api/reports/mine` and the review). */
export type ShareItem = NonNullable<MyReport['lines'][number]['shares']>[number];
/** A stop reason (停机原因) of `GET /api/stop-reasons`: code, name, category (planned 计划停机, unplanned 非计划停机), active. */
export type StopReasonItem = Item<Answer<'/api/stop-reasons', 'get'>>;
/** A stop as `POST /api/devices/{deviceNo}/stops` and `POST /api/stops/{stopId}/end` answer it. */
export type StopAnswer = Answer<'/api/stops/{stopId}/end', 'post'>;
/** 设备效率 (`GET /api/oee`): per device (or workshop, day) and the totals, percentages with 1 decimal. */
export type OeeAnswer = Answer<'/api/oee', 'get'>;
