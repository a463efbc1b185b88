/**
 * The server side of the clocking benchmark (bench/clock.ts), run as a child process so that the server has
 * its own event loop and the load generator does not share it.
 *
 * `tsx bench/clock-server.ts service <databaseUrl>`: the whole service (startService, no background work).
 * `tsx bench/clock-server.ts baseline <databaseUrl>`: the ceiling: bare express 5 + pg (pool of 10, like the
 * service) answering `POST /insert` with one INSERT and a JSON answer.
 * Prints `{"port": n}` on stdout when listening; ends on SIGTERM.
 */
import type { Server } from 'node:http';
import express from 'express';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startService } from '../src/app.ts';

const [mode, url] = process.argv.slice(2);

if (mode === 'service') {
  const config = loadConfig({ DATABASE_URL: url, PORT: '0', JWT_SECRET: 'bench-secret', LOG_LEVEL: 'silent' });
  const service = await startService(config, { background: false });
  console.log(JSON.stringify({ port: service.port }));
  process.on('SIGTERM', () => service.close().then(() => process.exit(0)));
} else if (mode === 'baseline') {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, who text NOT NULL, body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  const app = express();
  app.use(express.json());
  app.post('/insert', async (req, res) => {
    const r = await pool.query(`INSERT INTO bench_baseline (who, body) VALUES ($1, $2) RETURNING id`, [req.header('x-who') ?? '', JSON.stringify(req.body ?? {})]);
    res.json({ id: r.rows[0].id });
  });
  const server: Server = app.listen(0, () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })));
  process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
} else {
  console.error('usage: clock-server.ts service|baseline <databaseUrl>');
  process.exit(2);
}
