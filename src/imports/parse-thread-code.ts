/**
 * The code the parse thread runs (src/imports/parse-pool.ts), as one CommonJS file built from parse-worker.ts and
 * everything it imports (xlsx, yauzl, the sheet readers) by esbuild — the compiler tsx itself runs on — the first
 * time a parse needs it in this process. Why: a thread that loads the TypeScript modules through tsx's
 * loader costs 360–520 ms of CPU to start (the loader's resolution and transforms for every module, partly on the
 * process's loader thread at normal priority), the bundle 60–120 ms (`npm run bench -- import`); the parse thread
 * starts again for the first upload after each idle moment, and that CPU was taken from the event loop when
 * several uploads came at once.
 *
 * `parseThreadEntry()` → `{filename, execArgv}` for piscina: the bundle, written into a private temporary folder
 * (mode 0700, removed when the process exits; under systemd's PrivateTmp a folder of the unit's own); or, when it
 * cannot be built (no esbuild for this platform, no writable temporary folder), parse-worker.ts through tsx, as
 * before, with the reason logged once. Never throws.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ParseThreadEntry {
  /** The module piscina loads in the thread. */
  filename: string;
  /** The thread's node options. */
  execArgv: string[];
}

const SOURCE = fileURLToPath(new URL('./parse-worker.ts', import.meta.url));

/** parse-worker.ts through tsx's loader: a worker inherits no loader, so it is imported explicitly. */
const throughTsx = (): ParseThreadEntry => ({
  filename: SOURCE,
  execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href],
});

/** Builds the bundle into a private temporary folder → its path. Throws what esbuild or the file system throws. */
async function buildBundle(): Promise<string> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [SOURCE],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const dir = mkdtempSync(join(tmpdir(), 'shift-reporting-parse-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'parse-worker.cjs');
  writeFileSync(file, out.outputFiles[0].contents, { mode: 0o600 });
  return file;
}

let entry: Promise<ParseThreadEntry> | undefined;

/**
 * The parse thread's entry (module docstring), built once per process; `onFallback(err)` is told why when the
 * bundle cannot be built and tsx is used instead.
 */
export function parseThreadEntry(onFallback: (err: unknown) => void): Promise<ParseThreadEntry> {
  entry ??= buildBundle().then(
    (filename) => ({ filename, execArgv: [] }),
    (err: unknown) => {
      onFallback(err);
      return throughTsx();
    },
  );
  return entry;
}
