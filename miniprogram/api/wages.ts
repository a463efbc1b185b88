/**
 * The answer of `GET /api/wages/mine?month=YYYY-MM` (我的工资; issue #22, built in parallel, agreed shape).
 * When the service's document has that route, the generated type is used and this declaration only stands in for
 * a document without it; so once #22 is merged the page is checked against the real schema. Amounts are strings
 * with 2 decimals (yuan, "168.01"), rates strings with 4 decimals; `null` for a line without a price.
 */
import type { paths } from './openapi';

/** The agreed shape, used while the service's document has no wages route. */
export interface AgreedWages {
  month: string;
  status: 'open' | 'closed';
  employeePhone: string;
  employeeName: string;
  amount: string;
  unpricedLines: number;
  reports: {
    reportId: string;
    reportDate: string;
    amount: string;
    lines: {
      productId: number;
      projectNo: string;
      productName: string;
      deviceNo: string;
      processName: string;
      finishedQty: number;
      defectiveQty: number;
      pieceRate: string | null;
      defectRate: string | null;
      amount: string | null;
    }[];
  }[];
}

type Generated<P> = P extends { get: { responses: { 200: { content: { 'application/json': infer J } } } } } ? J : AgreedWages;

/** 我的工资's answer: the generated type when the document has the route, else the agreed shape. */
export type MineWages = paths extends { '/api/wages/mine': infer P } ? Generated<P> : AgreedWages;
