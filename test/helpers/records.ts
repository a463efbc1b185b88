/**
 * Records the API tests need so that requests reach the commands' own checks, not only their 404s: a product on
 * device 冲床 01, a report pending review (worker `pendingPhone` clocked in and out on the device and submitted one
 * line), and an open report window (the worker of `worker` clocked in and out, not submitted), on `app`'s clock.
 */
import type { TestApp } from './app.ts';

export interface Records {
  productId: number;
  /** A session in its report window, of the worker whose token was given. */
  sessionId: string;
  /** A report pending review. */
  reportId: string;
}

/** Creates the records (module docstring) and returns their ids. */
export async function seedRecords(app: TestApp, worker: string, pendingPhone: string): Promise<Records> {
  const product = await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P-2026-01', '前围横梁', '冲床 01', '冲压', 24, 1200) RETURNING id`,
  );
  const productId = Number(product.rows[0].id);
  const cycle = async (token: string) => {
    const s = await app.request('POST', '/api/clock/start', { token, body: { deviceNo: '冲床 01' } });
    app.clock.advance(4 * 3_600_000);
    await app.request('POST', '/api/clock/finish', { token, body: { deviceNo: '冲床 01' } });
    return s.body.sessionId as string;
  };
  const other = await app.login(pendingPhone, 'worker', '测试二');
  const submitted = await app.request('POST', '/api/reports', {
    token: other,
    body: { sessionId: await cycle(other), lines: [{ productId, finishedQty: 1, defectiveQty: 0 }] },
  });
  return { productId, sessionId: await cycle(worker), reportId: submitted.body.reportId };
}
