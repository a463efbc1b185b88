/**
 * The local control channel between `npm run cli` and a running server on the embedded database (
 * `console-link` "works while the server runs, on the embedded database too"). PGlite belongs to one process, so
 * while the server holds `PGLITE_DIR` the CLI cannot open it; it asks the server instead.
 *
 * The server (src/main.ts) writes `<PGLITE_DIR>.control` — `{pid, port, secret}`, readable by its owner only
 * (mode 0600) — once it listens, and deletes it when it stops. A request of the CLI carries the secret in the
 * header `X-Control-Secret` and must come from the loopback interface; `controlSecretMatches` checks both and that
 * the file is this process's. Whoever can read the file can already read the database folder beside it. On
 * PostgreSQL there is no file: the CLI writes to the shared database itself.
 *
 * So that a CLI run without the server's PGLITE_DIR finds it instead of creating a second database, the
 * server also registers in `data/run/<pid>.json` of its working directory (`npm start` and `npm run cli` both run
 * in the project's folder): `{pid, port, dataDir}` (`registerRunningServer`); `runningServers` lists the live ones
 * whose control file is theirs, forgetting entries of processes that are gone.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';

export const CONTROL_HEADER = 'x-control-secret';

export interface ControlFile {
  pid: number;
  port: number;
  secret: string;
}

/** The control file of `config`'s embedded database folder, or undefined on PostgreSQL. */
export const controlFilePath = (config: Pick<Config, 'database'>): string | undefined =>
  config.database.kind === 'pglite' ? `${resolve(config.database.dataDir)}.control` : undefined;

/** The control file's content, or undefined when there is none (or it cannot be read). */
export function readControlFile(config: Pick<Config, 'database'>): ControlFile | undefined {
  const path = controlFilePath(config);
  if (!path) return undefined;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof v?.pid === 'number' && typeof v?.port === 'number' && typeof v?.secret === 'string') return v;
  } catch {
    // none, or half-written: no channel
  }
  return undefined;
}

/**
 * Writes the control file for this process listening on `port` (embedded database only; nothing on PostgreSQL).
 * Returns `close()`, which deletes it.
 */
export function openControlChannel(config: Pick<Config, 'database'>, port: number): { close(): void } {
  const path = controlFilePath(config);
  if (!path) return { close() {} };
  const content: ControlFile = { pid: process.pid, port, secret: randomBytes(32).toString('base64url') };
  writeFileSync(path, JSON.stringify(content), { mode: 0o600 });
  return {
    close() {
      if (readControlFile(config)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True when `given` is this process's control secret and the request came from `remoteAddress` on loopback. */
export function controlSecretMatches(config: Pick<Config, 'database'>, given: unknown, remoteAddress: string | undefined): boolean {
  const file = readControlFile(config);
  if (!file || file.pid !== process.pid || typeof given !== 'string' || !LOOPBACK.has(remoteAddress ?? '')) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(file.secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Where running servers on the embedded database register, relative to the working directory (module docstring). */
export const RUN_DIR = 'data/run';

/** A server on the embedded database, as it registered: its process, port and data folder (absolute). */
export interface RunningServer {
  pid: number;
  port: number;
  dataDir: string;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Registers this process, listening on `port` on the embedded database of `config`, in RUN_DIR under `cwd` (nothing
 * on PostgreSQL). Returns `close()`, which removes the entry.
 */
export function registerRunningServer(config: Pick<Config, 'database'>, port: number, cwd = process.cwd()): { close(): void } {
  if (config.database.kind !== 'pglite') return { close() {} };
  const dir = join(cwd, RUN_DIR);
  const file = join(dir, `${process.pid}.json`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const entry: RunningServer = { pid: process.pid, port, dataDir: resolve(config.database.dataDir) };
  writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
  return { close: () => rmSync(file, { force: true }) };
}

/**
 * The servers registered in RUN_DIR under `cwd` that still run and still hold their data folder's control file;
 * entries of processes that are gone are removed. Sorted by pid.
 */
export function runningServers(cwd = process.cwd()): RunningServer[] {
  const dir = join(cwd, RUN_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch {
    return [];
  }
  const out: RunningServer[] = [];
  for (const name of names) {
    let entry: RunningServer | undefined;
    try {
      const v = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      if (typeof v?.pid === 'number' && typeof v?.port === 'number' && typeof v?.dataDir === 'string') entry = v;
    } catch {
      // half-written or unreadable: not a server to ask
    }
    if (!entry) continue;
    const control = readControlFile({ database: { kind: 'pglite', dataDir: entry.dataDir } });
    if (alive(entry.pid) && control?.pid === entry.pid) out.push(entry);
    else if (!alive(entry.pid)) rmSync(join(dir, name), { force: true });
  }
  return out.sort((a, b) => a.pid - b.pid);
}
