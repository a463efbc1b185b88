/**
 * Several API processes on one machine (`API_PROCESSES` > 1, PostgreSQL only): node:cluster workers share the
 * HTTP port, so a service on N cores answers with N event loops. Everything that must run once is already
 * coordinated through PostgreSQL (advisory-lock leadership of the async consumers, the notification sender and
 * the abandonment job), so the workers are plain instances of the service, like instances on several machines.
 *
 * The primary process: migrates the database once, then forks the workers with what they must share:
 * - the token key: a JWT_SECRET made for this start when none is set (else each worker would sign its own);
 * - the platform: without WX_APPID, the primary runs the one platform simulator and hands its address and
 *   credentials to the workers (WX_APPID, WX_SECRET, WX_API_BASE), so logins work on every worker.
 * A worker that dies is replaced (at most once a second); SIGINT/SIGTERM stop the workers gracefully (each
 * finishes its requests in flight), then the simulator, then the primary.
 */
import cluster, { type Worker } from 'node:cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { systemClock } from './clock.ts';
import { openDatabase } from './db/database.ts';
import { runMigrations } from './db/migrate.ts';
import { PlatformSimulator } from './platform/simulator.ts';

/** True in a worker forked by `runPrimary`. */
export const isClusterWorker = () => cluster.isWorker;

/**
 * Runs the primary process for `config.apiProcesses` workers (module docstring); resolves when all workers have
 * stopped after a signal. Throws when the database cannot be migrated.
 */
export async function runPrimary(config: Config, log: Logger): Promise<void> {
  const db = await openDatabase(config.database, log);
  try {
    const applied = await runMigrations(db.pool);
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
  } finally {
    await db.close();
  }

  const env: Record<string, string> = {};
  if (config.jwtSecretGenerated) {
    log.warn('JWT_SECRET is not set: a random key is used, tokens end with this start');
    env.JWT_SECRET = config.jwtSecret;
  }
  let simulator: PlatformSimulator | undefined;
  if (!config.platform) {
    simulator = new PlatformSimulator({ clock: systemClock });
    const apiBase = await simulator.start();
    log.info({ apiBase }, 'WX_APPID is not set: the workers use the built-in platform simulator');
    Object.assign(env, { WX_APPID: simulator.appId, WX_SECRET: simulator.secret, WX_API_BASE: apiBase });
  }

  let stopping = false;
  let lastFork = 0;
  const fork = async (): Promise<Worker> => {
    const wait = lastFork + 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    lastFork = Date.now();
    return cluster.fork(env);
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log.error({ pid: worker.process.pid, code, signal }, 'API process ended unexpectedly: starting another');
    void fork();
  });
  for (let i = 0; i < config.apiProcesses; i++) cluster.fork(env);
  log.info({ processes: config.apiProcesses, port: config.port }, `报工服务以 ${config.apiProcesses} 个进程启动`);

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down the API processes');
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
      let left = workers.length;
      if (left === 0) resolve();
      for (const w of workers) {
        w.once('exit', () => {
          if (--left === 0) resolve();
        });
        w.process.kill('SIGTERM');
      }
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
  await simulator?.close();
}
