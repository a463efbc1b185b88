/** Setup helpers of the clocking HTTP tests: products by SQL, and short calls of the worker's endpoints. */
import type { TestApp } from '../helpers/app.ts';

let seq = 0;

/** Inserts a product using `deviceNo` and returns its id. */
export async function addProduct(
  app: TestApp,
  deviceNo: string,
  opts: { name?: string; cycle?: number; workload?: number; project?: string; process?: string } = {},
): Promise<number> {
  seq++;
  const cycle = opts.cycle ?? 12.5;
  const r = await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [opts.project ?? 'P-100', opts.name ?? `产品${seq}`, deviceNo, opts.process ?? '冲压', cycle, opts.workload ?? Math.floor(28800 / cycle)],
  );
  return Number(r.rows[0].id);
}

/** The worker's calls, with their token. */
export function workerClient(app: TestApp, token: string) {
  const q = (deviceNo: string) => `deviceNo=${encodeURIComponent(deviceNo)}`;
  return {
    state: (deviceNo: string) => app.request('GET', `/api/clock/state?${q(deviceNo)}`, { token }),
    start: (deviceNo: string) => app.request('POST', '/api/clock/start', { token, body: { deviceNo } }),
    switchDevice: (deviceNo: string) => app.request('POST', '/api/clock/switch-device', { token, body: { deviceNo } }),
    finish: (deviceNo: string) => app.request('POST', '/api/clock/finish', { token, body: { deviceNo } }),
    draft: (sessionId: string) => app.request('GET', `/api/reports/draft?sessionId=${sessionId}`, { token }),
    submit: (sessionId: string, lines: unknown[]) => app.request('POST', '/api/reports', { token, body: { sessionId, lines } }),
    mine: (query = '') => app.request('GET', `/api/reports/mine${query ? `?${query}` : ''}`, { token }),
  };
}

export const MIN = 60_000;
