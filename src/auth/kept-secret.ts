/**
 * The token key of an installation on the embedded database (decision: a restart of `npm start` keeps people signed
 * in). With no `JWT_SECRET` and the embedded PGlite, the key made at the first start is kept in the file
 * `<PGLITE_DIR>.jwt-secret` beside the data folder (as its lock file is), readable by its owner only (0600), and
 * read again at every start: tokens and console sign-ins outlive a restart, on the computer and the phones alike.
 * With PostgreSQL and no JWT_SECRET (development only: production requires it) the key still lasts one start.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config.ts';

/** Where the key of the embedded database at `dataDir` is kept. */
export const keptSecretPath = (dataDir: string): string => `${dataDir.replace(/[/\\]+$/, '')}.jwt-secret`;

/** The key kept at `path`, or undefined when there is none yet (an empty file counts as none). */
export function readKeptSecret(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * `config` with the kept key of its embedded database (module docstring): read from its file, or made (32 random
 * bytes, hex) and written there with mode 0600 when there is none; a file others may read is made 0600. Unchanged when
 * JWT_SECRET was given or the database is PostgreSQL. Throws the file system's error when the folder cannot be
 * written (the start then fails with it, as it would for the database folder).
 */
export function withKeptJwtSecret(config: Config): Config {
  if (!config.jwtSecretGenerated || config.database.kind !== 'pglite') return config;
  const path = keptSecretPath(config.database.dataDir);
  let secret = readKeptSecret(path);
  if (secret === undefined) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another start wrote it first: use theirs
    }
    secret = readKeptSecret(path);
    if (secret === undefined) throw new Error(`${path}: the token key could not be kept`);
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return { ...config, jwtSecret: secret, jwtSecretGenerated: false, jwtSecretFile: path };
}
