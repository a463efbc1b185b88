/**
 * Builds the web console into `web/dist` (issue #17 "npm install && npm start still gives a working console on a
 * fresh clone: build at install or at start when the built files are missing or stale"). Run by `postinstall`,
 * `prestart` (both with `--if-stale`) and `npm run build:web`.
 *
 * 1. `--if-stale`: nothing to do when `web/dist/.build-stamp` holds the hash of the build's inputs (every file of
 *    `web/` but the build output and generated types, and the root package-lock.json).
 * 2. The API types (scripts/api-types.ts), when openapi-typescript is installed (a development install).
 * 3. `vite build` into a fresh folder, then `.br` and `.gz` beside every text file that compression makes smaller
 *    (served by src/http/console-static.ts), then the stamp; the folder replaces `web/dist` in one rename, so a
 *    running service never sees half a build.
 * Builds of several processes at once (tests, CI) wait for each other through the folder lock `web/.build-lock`.
 * Exit 1 when the build fails.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIR = join(WEB_DIR, 'dist');
const STAMP = '.build-stamp';
const LOCK = join(WEB_DIR, '.build-lock');
const SKIP = new Set(['node_modules', 'dist', '.build-lock']);
const GENERATED = new Set(['src/api/openapi.d.ts']);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

function inputFiles(dir = WEB_DIR): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith('dist.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...inputFiles(path));
    else if (!GENERATED.has(relative(WEB_DIR, path).split('\\').join('/'))) out.push(path);
  }
  return out.sort();
}

/** The hash of the build's inputs (module docstring, step 1). */
export function inputsHash(): string {
  const h = createHash('sha256');
  const lock = join(WEB_DIR, '..', 'package-lock.json');
  for (const f of [...inputFiles(), ...(existsSync(lock) ? [lock] : [])]) {
    h.update(relative(WEB_DIR, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  return h.digest('hex');
}

/** True when `web/dist` was built from the current inputs. */
export function isFresh(): boolean {
  try {
    return readFileSync(join(DIST_DIR, STAMP), 'utf8') === inputsHash();
  } catch {
    return false;
  }
}

function compressAll(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      compressAll(path);
      continue;
    }
    if (!COMPRESSIBLE.test(e.name)) continue;
    const raw = readFileSync(path);
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    const gz = gzipSync(raw, { level: 9 });
    if (br.length < raw.length) writeFileSync(`${path}.br`, br);
    if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the build lock, waiting for another build (up to 10 minutes); a lock of a dead process is taken over. */
async function lock(): Promise<() => void> {
  for (let waited = 0; waited < 600_000; waited += 500) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return () => rmSync(LOCK, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
      } catch {
        // being written
      }
      const age = Date.now() - statSync(LOCK).mtimeMs;
      if ((owner && !pidAlive(owner)) || (!owner && age > 10_000)) rmSync(LOCK, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  throw new Error(`timed out waiting for ${LOCK}`);
}

/** Builds the console (module docstring); with `ifStale`, only when it is not fresh. Returns true when it built. */
export async function buildConsole(opts: { ifStale?: boolean; log?: (line: string) => void } = {}): Promise<boolean> {
  const log = opts.log ?? ((l: string) => console.log(l));
  if (opts.ifStale && isFresh()) return false;
  const release = await lock();
  try {
    if (opts.ifStale && isFresh()) return false; // built by the process we waited for
    const hash = inputsHash();
    const started = Date.now();
    log('构建网页后台 / building the web console (web/dist) …');
    try {
      await (await import('./api-types.ts')).generateApiTypes();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
      log('  (openapi-typescript is not installed: API types not generated)');
    }
    const out = join(WEB_DIR, `dist.tmp-${process.pid}`);
    rmSync(out, { recursive: true, force: true });
    const { build } = await import('vite');
    await build({ root: WEB_DIR, configFile: join(WEB_DIR, 'vite.config.ts'), logLevel: 'warn', build: { outDir: out } });
    compressAll(out);
    writeFileSync(join(out, STAMP), hash);
    const old = join(WEB_DIR, `dist.old-${process.pid}`);
    if (existsSync(DIST_DIR)) renameSync(DIST_DIR, old);
    renameSync(out, DIST_DIR);
    rmSync(old, { recursive: true, force: true });
    log(`网页后台已构建 / web console built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  } finally {
    release();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildConsole({ ifStale: process.argv.includes('--if-stale') }).then(
    () => process.exit(0),
    (err) => {
      console.error('网页后台构建失败 / building the web console failed:', err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
