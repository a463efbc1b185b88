/**
 * Spreadsheets are parsed off the event loop: in a worker thread of a piscina pool, so that
 * an import never delays a worker's clock-in, and with that thread's memory and time bounded, so that a runaway
 * parse is ended without touching the service.
 *
 * - One thread (the service's other work keeps the second core), started on demand and stopped as soon as it is
 *   idle (IDLE_TIMEOUT_MS), so that its heap is given back between imports (two 10,000-row previews in a row peaked
 *   at 295–339 MB with the thread kept 30 s, 291 MB so: `npm run bench -- import`); at most MAX_QUEUED uploads
 *   wait for it (more: 503 IMPORT_BUSY with Retry-After: IMPORT_RETRY_AFTER_SECONDS, also in
 *   `details.retryAfterSeconds`). That bound is counted here: piscina's own `maxQueue` never counts a task
 *   run with an abort signal (it waits in another queue), and every parse has one, its time limit.
 * - Its heap is limited (`resourceLimits`: WORKER_HEAP_MB old generation, 16 MB young): a parse that needs more
 *   is ended by V8 (ERR_WORKER_OUT_OF_MEMORY) and answers 422 SPREADSHEET_TOO_LARGE; so is one still running
 *   after PARSE_TIME_LIMIT_MS (the thread is terminated). The pool starts a fresh thread for the next upload.
 * - The thread runs one JavaScript file bundled from parse-worker.ts when the pool is made (parse-thread-code.ts:
 *   ~0.1 s of CPU to start a thread instead of ~0.4 s through tsx's loader), or, when that cannot be
 *   built, the TypeScript through tsx (V8 flags of `npm start` are not allowed in a worker's execArgv).
 *
 * `parseInWorker(kind, buffer, maxRows)` → the kind's `{valid, errors}` (parse-worker.ts; its JSON texts parsed one
 * slice per turn of the event loop, shared/turns.ts). Rejects with the
 * reader's AppError (422 …), AppError 422 SPREADSHEET_TOO_LARGE (memory or time limit), RetryLaterError 503 IMPORT_BUSY, and
 * AppError 422 UNREADABLE_SPREADSHEET for anything else the reader threw (logged with its stack).
 */
import { Piscina } from 'piscina';
import { AppError, RetryLaterError, unprocessable } from '../errors.ts';
import { createLogger, LOG_LEVELS, type Logger } from '../logger.ts';
import { parseArraysInTurns } from '../shared/turns.ts';
import { spreadsheetTooLarge, type TooLargeDetails } from '../spreadsheet/too-large.ts';
import type { ErrorRow } from './problems.ts';
import { parseThreadEntry } from './parse-thread-code.ts';
import type { ParseOutcome, ParseTask } from './parse-worker.ts';

/** Old-generation heap of the parse thread, in MB: an honest 50,000-row list needs about 100. */
export const WORKER_HEAP_MB = 256;
/** A parse still running after this many milliseconds (waiting included) is ended. */
export const PARSE_TIME_LIMIT_MS = 15_000;
/** Uploads that may wait for the parse thread; one more is 503 IMPORT_BUSY. */
export const MAX_QUEUED = 4;
/**
 * The Retry-After of 503 IMPORT_BUSY, in seconds: long enough for the parses ahead (one running, MAX_QUEUED
 * waiting) to be through for an ordinary list of a few thousand rows, short enough that a person waiting at the
 * console does not give up. A choice, not a measurement of the queue at that moment (a parse may take up to
 * PARSE_TIME_LIMIT_MS): a client that is refused again simply waits again.
 */
export const IMPORT_RETRY_AFTER_SECONDS = 5;
const IDLE_TIMEOUT_MS = 100;
let timeLimitMs = PARSE_TIME_LIMIT_MS;

/** Sets the time limit of the parses started from now on, in milliseconds (tests; PARSE_TIME_LIMIT_MS otherwise). */
export function setParseTimeLimit(ms: number): void {
  timeLimitMs = ms;
}

let logger: Logger | undefined;
/** The pool's logger, made when first needed, at LOG_LEVEL when it is a level (the configuration says when not). */
const log = () => {
  const level = process.env.LOG_LEVEL ?? 'info';
  return (logger ??= createLogger((LOG_LEVELS as readonly string[]).includes(level) ? level : 'info').child({ module: 'parse-pool' }));
};

let pool: Promise<Piscina<ParseTask, ParseOutcome>> | undefined;
/** Parses running or waiting for the thread. */
let inFlight = 0;

/** The pool (module docstring), made on first use with the thread's code of parse-thread-code.ts. */
function parsePool(): Promise<Piscina<ParseTask, ParseOutcome>> {
  pool ??= parseThreadEntry((err) => log().warn({ err }, 'parse thread bundle not built: the thread loads TypeScript through tsx (slower to start)')).then(
    ({ filename, execArgv }) =>
      new Piscina<ParseTask, ParseOutcome>({
        filename,
        execArgv,
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: IDLE_TIMEOUT_MS,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      }),
  );
  return pool;
}

const tooLarge = (why: string, details: TooLargeDetails) =>
  spreadsheetTooLarge(`这个 Excel 文件${why}，请删除多余的工作表或内容、分成几个文件后再导入`, details);

/** Parses `buffer` as a `kind` list in the parse thread (module docstring). */
export async function parseInWorker(kind: ParseTask['kind'], buffer: Uint8Array, maxRows: number): Promise<{ valid: unknown[]; errors: ErrorRow[] }> {
  // One parse runs, MAX_QUEUED wait: more is refused at once rather than kept in memory (module docstring).
  if (inFlight >= 1 + MAX_QUEUED) {
    throw new RetryLaterError(503, 'IMPORT_BUSY', `正在处理其他导入文件，请 ${IMPORT_RETRY_AFTER_SECONDS} 秒后重试`, IMPORT_RETRY_AFTER_SECONDS);
  }
  inFlight++;
  // An upload's bytes are in shared memory (imports/shared-bytes.ts): handed over as they are, no copy. Other bytes
  // (the command line's file) get a copy of their own, moved to the thread (a Buffer may share its memory).
  const shared = buffer.buffer instanceof SharedArrayBuffer;
  const bytes = shared ? buffer : new Uint8Array(buffer);
  let outcome: ParseOutcome;
  try {
    const threads = await parsePool();
    outcome = await threads.run(
      { kind, buffer: bytes, maxRows },
      { transferList: shared ? [] : [bytes.buffer as ArrayBuffer], signal: AbortSignal.timeout(timeLimitMs) },
    );
  } catch (err) {
    const e = err as { code?: string; name?: string; message?: string };
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') throw tooLarge(`读取时需要的内存超过上限（${WORKER_HEAP_MB} MB）`, { maxHeapMb: WORKER_HEAP_MB });
    const seconds = Math.ceil(timeLimitMs / 1000);
    if (e?.name === 'AbortError') throw tooLarge(`读取超过了 ${seconds} 秒`, { maxSeconds: seconds });
    throw err;
  } finally {
    inFlight--;
  }
  if (outcome.ok) return { valid: await parseArraysInTurns(outcome.valid), errors: await parseArraysInTurns<ErrorRow>(outcome.errors) };
  if ('unexpected' in outcome) {
    log().error({ kind, stack: outcome.unexpected }, 'spreadsheet reader failed');
    throw unprocessable('UNREADABLE_SPREADSHEET', '无法读取这个 Excel 文件，请用 Excel 另存为 .xlsx 后再上传');
  }
  throw new AppError(outcome.status, outcome.code, outcome.message, outcome.details);
}

/** Ends the parse thread (tests, shutdown); a later parse starts a new one. */
export async function closeParsePool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await (await p)?.destroy();
}
