/**
 * The local control channel between `npm run cli` and a running server on the embedded database (issue #17:
 * `console-link` "works while the server runs, on the embedded database too"). PGlite belongs to one process, so
 * while the server holds `PGLITE_DIR` the CLI cannot open it; it asks the server instead.
 *
 * The server (src/main.ts) writes `<PGLITE_DIR>.control` — `{pid, port, secret}`, readable by its owner only
 * (mode 0600) — once it listens, and deletes it when it stops. A request of the CLI carries the secret in the
 * header `X-Control-Secret` and must come from the loopback interface; `controlSecretMatches` checks both and that
 * the file is this process's. Whoever can read the file can already read the database folder beside it. On
 * PostgreSQL there is no file: the CLI writes to the shared database itself.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
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
