/**
 * The worker-thread side of the spreadsheet parse (parse-pool.ts): reads an uploaded list off the event loop.
 * Loaded by piscina in a worker thread (through tsx); its default export runs one task.
 *
 * Task `{kind, buffer, maxRows}` → `{ok: true, valid, errors}` (the kind's sheet reader: checked rows and error
 * rows, as JSON texts of 2,000 items each, which the event loop's side parses one per turn: shared/turns.ts), or `{ok: false, status, code, message, details}` for
 * the reader's AppError, or `{ok: false, unexpected}` (the stack of anything else, which the pool logs).
 */
import { AppError } from '../errors.ts';
import { readPeopleSheet } from '../people/sheet.ts';
import { readProductSheet } from '../products/sheet.ts';
import { readWorkOrderSheet } from '../work-orders/sheet.ts';
import { jsonSlices } from '../shared/turns.ts';
import type { ErrorRow } from './problems.ts';

export interface ParseTask {
  kind: 'products' | 'people' | 'work-orders';
  buffer: Uint8Array;
  maxRows: number;
}

export type ParseOutcome =
  | { ok: true; valid: string[]; errors: string[] }
  | { ok: false; status: number; code: string; message: string; details?: unknown }
  | { ok: false; unexpected: string };

const READERS: Record<ParseTask['kind'], (buffer: Uint8Array, maxRows: number) => Promise<{ valid: unknown[]; errors: ErrorRow[] }>> = {
  products: readProductSheet,
  people: readPeopleSheet,
  'work-orders': readWorkOrderSheet,
};

/** Runs one parse task (module docstring). Never throws. */
export default async function parse(task: ParseTask): Promise<ParseOutcome> {
  try {
    const read = Object.hasOwn(READERS, task.kind) ? READERS[task.kind] : undefined;
    if (!read) return { ok: false, unexpected: `no sheet reader for ${String(task.kind)}` };
    const { valid, errors } = await read(task.buffer, task.maxRows);
    return { ok: true, valid: jsonSlices(valid), errors: jsonSlices(errors) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details };
    return { ok: false, unexpected: (err as Error)?.stack ?? String(err) };
  }
}
