/**
 * Long work in slices (an import never holds other requests up): helpers that do a big job a
 * slice at a time with a turn of the event loop between, so that requests waiting meanwhile are served.
 */
import type { Readable, Writable } from 'node:stream';

/** Items handled per turn of the event loop. */
export const SLICE = 2_000;

/** Resolves at the next turn of the event loop (after pending I/O). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The JSON text of the array `items` (each mapped by `map`), made SLICE items per turn. */
export async function jsonArrayInSlices<T>(items: readonly T[], map: (item: T) => unknown = (x) => x): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < items.length; i += SLICE) {
    if (i > 0) await nextTurn();
    parts.push(JSON.stringify(items.slice(i, i + SLICE).map(map)).slice(1, -1));
  }
  return `[${parts.join(',')}]`;
}

/**
 * Feeds `source` into `sink` one chunk per turn of the event loop: after each chunk the source pauses
 * until the next turn (or until `sink` drains), and ends `sink` when it ends. A socket that has megabytes waiting is
 * read up to 32 chunks of 64 kB at a time when it flows; fed so, its chunks take turns with every other request.
 * Returns `stop()`: `sink` gets nothing more, and the rest of `source` is read and dropped.
 */
export function feedInTurns(source: Readable, sink: Writable): () => void {
  let stopped = false;
  const onData = (chunk: unknown) => {
    source.pause();
    const next = () => setImmediate(() => !stopped && source.resume());
    if (sink.write(chunk)) next();
    else sink.once('drain', next);
  };
  const onEnd = () => sink.end();
  source.on('data', onData);
  source.once('end', onEnd);
  return () => {
    stopped = true;
    source.off('data', onData);
    source.off('end', onEnd);
    source.resume();
  };
}

/** JSON texts of arrays (e.g. SLICE items each) as texts → one array of their items, one text parsed per turn. */
export async function parseArraysInTurns<T>(texts: readonly string[]): Promise<T[]> {
  const out: T[] = [];
  for (const [i, text] of texts.entries()) {
    if (i > 0) await nextTurn();
    for (const item of JSON.parse(text) as T[]) out.push(item);
  }
  return out;
}

/** The JSON texts of `items` in slices of SLICE (for parseArraysInTurns on the other side of a thread). */
export const jsonSlices = <T>(items: readonly T[]): string[] =>
  Array.from({ length: Math.ceil(items.length / SLICE) }, (_, k) => JSON.stringify(items.slice(k * SLICE, (k + 1) * SLICE)));
