/**
 * A JSON answer written in pieces (an import never delays other requests): a route returns
 * `new ChunkedJson(value)` when the value may hold long arrays (an import preview lists up to 50,000 rows, ~13 MB of
 * JSON). The app (http/app.ts) writes it with `writeTo(res, status)`: the same JSON text as `res.json(value)`, made
 * and sent a slice of at most SLICE array items at a time, with a turn of the event loop between slices (and the
 * socket's backpressure respected), so that no single piece of work holds the event loop for long and no 13 MB
 * string is ever built. A client that goes away mid-answer ends the writing at once: the rest is neither made nor
 * waited for (a closed socket never drains, and waiting would keep the whole preview in memory).
 */
import type { Response } from 'express';
import { nextTurn } from '../shared/turns.ts';

/** Array items serialised per turn of the event loop (preview rows are ~250 bytes of JSON each). */
const SLICE = 500;

/** A JSON answer to write in pieces (module docstring). */
export class ChunkedJson {
  constructor(readonly value: unknown) {}

  /**
   * Writes the value as JSON with `status` (application/json, UTF-8, chunked transfer) and ends the answer; stops
   * without error when the connection closes first.
   */
  async writeTo(res: Response, status: number): Promise<void> {
    res.status(status).type('application/json; charset=utf-8');
    const write = async (text: string) => {
      if (res.destroyed) throw CLIENT_GONE;
      if (!res.write(text)) await drainedOrClosed(res);
    };
    try {
      await writeValue(this.value, write);
    } catch (e) {
      if (e === CLIENT_GONE) return;
      throw e;
    }
    res.end();
  }
}

/** Thrown by a write after the connection has closed: ends writeTo's work (caught there, never seen outside). */
const CLIENT_GONE = Symbol('client gone');

/** Resolves on the response's next 'drain' or 'close', whichever comes first, leaving no listener behind. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes `v` as JSON through `write`: long arrays a slice at a time, everything else as JSON.stringify does. */
async function writeValue(v: unknown, write: (text: string) => Promise<void>): Promise<void> {
  if (Array.isArray(v) && v.length > SLICE) {
    await write('[');
    for (let i = 0; i < v.length; i += SLICE) {
      const slice = JSON.stringify(v.slice(i, i + SLICE));
      await write((i === 0 ? '' : ',') + slice.slice(1, -1));
      await nextTurn();
    }
    await write(']');
    return;
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).some((x) => Array.isArray(x) && x.length > SLICE)) {
    let first = true;
    await write('{');
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined || typeof x === 'function') continue;
      await write(`${first ? '' : ','}${JSON.stringify(k)}:`);
      first = false;
      await writeValue(x, write);
    }
    await write('}');
    return;
  }
  await write(JSON.stringify(v) ?? 'null');
}
