import { expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';

it('graceful shutdown: requests in flight finish, new ones are refused, the database is closed', async () => {
  const app = await startTestApp();
  // Take every pooled connection, so the requests wait for the database: they are in flight at close.
  const pool = app.service.ctx.db.pool;
  const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
  const inFlight = Promise.all([1, 2, 3].map(() => app.request('GET', '/api/health')));
  while (pool.waitingCount < 3) await new Promise((r) => setTimeout(r, 5));
  const closing = app.close();
  await new Promise((r) => setTimeout(r, 50));
  for (const c of held) c.release();
  const answers = await inFlight;
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  await closing;
  await expect(fetch(`${app.url}/api/health`)).rejects.toThrow();
  await expect(app.service.ctx.db.pool.query('SELECT 1')).rejects.toThrow();
});
