/**
 * The ceiling of the clocking benchmark (bench/clock.ts), run as its own process tree so that the load generator
 * does not share its event loops: bare express 5 + pg (a pool of 10 per process, like the service) answering
 * `POST /insert` with one INSERT and a JSON answer, on `processes` processes sharing the port (node:cluster, as
 * the service with API_PROCESSES).
 *
 * `tsx bench/clock-server.ts <databaseUrl> <processes>`: sends `{type: 'ready', port}` over the IPC channel when
 * every process listens; ends on SIGTERM.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import express from 'express';
import pg from 'pg';

const [url, processesArg] = process.argv.slice(2);
const processes = Number(processesArg ?? 1);

if (cluster.isPrimary) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, who text NOT NULL, body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  await pool.end();
  let listening = 0;
  cluster.on('listening', (_w, address) => {
    if (++listening === processes) process.send?.({ type: 'ready', port: address.port });
  });
  for (let i = 0; i < processes; i++) cluster.fork();
  process.on('SIGTERM', () => {
    const workers = Object.values(cluster.workers ?? {});
    let left = workers.length;
    for (const w of workers) {
      w!.once('exit', () => --left === 0 && process.exit(0));
      w!.process.kill('SIGTERM');
    }
  });
} else {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = express();
  app.use(express.json());
  app.post('/insert', async (req, res) => {
    const r = await pool.query(`INSERT INTO bench_baseline (who, body) VALUES ($1, $2) RETURNING id`, [req.header('x-who') ?? '', JSON.stringify(req.body ?? {})]);
    res.json({ id: r.rows[0].id });
  });
  const server: Server = app.listen(0);
  process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
}
