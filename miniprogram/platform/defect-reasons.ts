/**
 * The defect reasons a page offers or names (`GET /api/defect-reasons`, `active=true` for a form that picks them).
 * Never throws: a service without the route (404 NOT_FOUND, a server older than defect reasons) gives none and says
 * nothing; any other failure gives none and its sentence (`note`), and the form still works without reasons. A 401
 * leaves the page to the page's own read (its call opens the login page, once).
 */
import type { DefectReasonItem } from '../api/types';
import { stepOf } from './failure';
import { call, isFailure } from './request';

/** The reasons read, or none and why. */
export async function readReasons(activeOnly: boolean): Promise<{ items: DefectReasonItem[]; note: string }> {
  try {
    const r = await call<{ items: DefectReasonItem[] }>('GET', '/api/defect-reasons', { query: activeOnly ? { active: 'true' } : {}, keepPageOn401: true });
    return { items: r.items, note: '' };
  } catch (err) {
    if (isFailure(err) && err.status === 404 && err.code === 'NOT_FOUND') return { items: [], note: '' };
    return { items: [], note: `不良原因没有读取到：${stepOf(err).text}` };
  }
}
