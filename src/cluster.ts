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
 * A worker that dies is replaced (at most once a second), unless it ended on its own with an error before it
 * ever listened (it cannot start: database gone, port taken, bad setting): then the whole service stops with exit
 * code 1 rather than restarting forever.
 * SIGINT/SIGTERM, or the end of the parent's IPC channel when there is one, stop the workers gracefully (each
 * finishes its requests in flight), then the simulator, then the primary. When every worker listens, a primary
 * started with an IPC channel (a process manager, the benchmark) is sent `{type: 'ready', port}`.
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
 * Runs the primary process for `config.apiProcesses` workers (module docstring); resolves with the exit code
 * (0 after a signal, 1 when a worker could not start) once all workers have stopped. Throws when the database
 * cannot be migrated.
 */
export async function runPrimary(config: Config, log: Logger): Promise<number> {
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
  let exitCode = 0;
  let stop: (reason: string) => void = () => {};
  const listened = new Set<number>();
  let lastFork = 0;
  const fork = async (): Promise<Worker> => {
    const wait = lastFork + 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    lastFork = Date.now();
    return cluster.fork(env);
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!listened.has(worker.id) && code !== 0 && signal === null) {
      log.error({ pid: worker.process.pid, code, signal }, 'an API process could not start: stopping the service');
      exitCode = 1;
      stop('startup failure');
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'API process ended unexpectedly: starting another');
    void fork();
  });
  cluster.on('listening', (worker, address) => {
    listened.add(worker.id);
    if (listened.size === config.apiProcesses) {
      log.info({ processes: config.apiProcesses, port: address.port }, `报工服务已启动（${config.apiProcesses} 个进程） http://localhost:${address.port}/api/health`);
      process.send?.({ type: 'ready', port: address.port });
    }
  });
  for (let i = 0; i < config.apiProcesses; i++) cluster.fork(env);

  await new Promise<void>((resolve) => {
    stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ reason }, 'shutting down the API processes');
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
    if (process.connected) process.on('disconnect', () => stop('the parent process ended'));
  });
  await simulator?.close();
  return exitCode;
}
