/**
 * Long work in slices: the JSON a ChunkedJson answer writes piece by piece is exactly
 * JSON.stringify's, the slice helpers (shared/turns.ts) give back what they were given, and a stream fed in turns
 * hands over one chunk per turn of the event loop.
 */
import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { ChunkedJson } from '../../src/http/chunked-json.ts';
import { feedInTurns, jsonArrayInSlices, jsonSlices, parseArraysInTurns, SLICE } from '../../src/shared/turns.ts';

/** A response that keeps what is written, and says "full" now and then (backpressure). */
function fakeResponse() {
  const out = Object.assign(new EventEmitter(), {
    chunks: [] as string[],
    statusCode: 0,
    contentType: '',
    ended: false,
    destroyed: false,
    status(s: number) {
      out.statusCode = s;
      return out;
    },
    type(t: string) {
      out.contentType = t;
      return out;
    },
    write(text: string) {
      out.chunks.push(text);
      if (out.chunks.length % 7 === 0) {
        setImmediate(() => out.emit('drain'));
        return false;
      }
      return true;
    },
    end() {
      out.ended = true;
    },
  });
  return out;
}

describe('ChunkedJson', () => {
  it('writes exactly what JSON.stringify gives, in pieces, for long arrays at the top and inside an object', async () => {
    const rows = Array.from({ length: 5_123 }, (_, i) => ({ row: i + 2, name: `产品${i}`, cycle: i / 7, note: i % 3 ? null : undefined }));
    for (const value of [rows, { importId: 'x', counts: { create: 5_123 }, create: rows, update: [], unchanged: rows.slice(0, 3), skipped: undefined }]) {
      const res = fakeResponse();
      await new ChunkedJson(value).writeTo(res as unknown as Response, 200);
      expect([res.statusCode, res.contentType, res.ended]).toEqual([200, 'application/json; charset=utf-8', true]);
      expect(res.chunks.length).toBeGreaterThan(10);
      expect(res.chunks.join('')).toBe(JSON.stringify(value));
    }
  });

  it('stops when the client goes away while the socket is full: no more writes, no end, no listener left', async () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ row: i + 2 }));
    const res = fakeResponse();
    const write = res.write;
    res.write = (text: string) => {
      write(text);
      if (res.chunks.length < 3) return true;
      // The socket is full and then closes: 'drain' never comes.
      setImmediate(() => {
        res.destroyed = true;
        res.emit('close');
      });
      return false;
    };
    await new ChunkedJson(rows).writeTo(res as unknown as Response, 200);
    expect(res.chunks).toHaveLength(3);
    expect(res.ended).toBe(false);
    expect([res.listenerCount('drain'), res.listenerCount('close')]).toEqual([0, 0]);
  });
});

describe('slices', () => {
  it('jsonArrayInSlices is JSON.stringify of the mapped array; jsonSlices and parseArraysInTurns round-trip', async () => {
    const items = Array.from({ length: SLICE * 2 + 17 }, (_, i) => ({ k: i, t: `文字${i}` }));
    expect(await jsonArrayInSlices(items, (x) => x.k)).toBe(JSON.stringify(items.map((x) => x.k)));
    expect(await jsonArrayInSlices([])).toBe('[]');
    const texts = jsonSlices(items);
    expect(texts).toHaveLength(3);
    expect(await parseArraysInTurns(texts)).toEqual(items);
    expect(await parseArraysInTurns(jsonSlices([]))).toEqual([]);
  });
});

describe('feedInTurns', () => {
  it('hands the chunks over one per turn of the event loop, in order, and ends the sink', async () => {
    const chunks = Array.from({ length: 12 }, (_, i) => Buffer.from(`chunk ${i};`));
    const got: string[] = [];
    const sink = new Writable({
      highWaterMark: 16,
      write(chunk, _enc, done) {
        got.push(String(chunk));
        // Slow now and then: the feed waits for 'drain'.
        if (got.length % 5 === 0) setTimeout(done, 5);
        else done();
      },
    });
    const ended = new Promise((r) => sink.on('finish', r));
    // Everything is there at once, as on a socket with megabytes waiting.
    const source = new PassThrough();
    for (const c of chunks) source.write(c);
    source.end();
    // How many chunks were handed over at each turn of the event loop.
    const turns: number[] = [];
    const marks = setImmediate(function mark() {
      turns.push(got.length);
      if (got.length < chunks.length) setImmediate(mark);
    });
    feedInTurns(source, sink);
    await ended;
    clearImmediate(marks);
    expect(got.join('')).toBe(chunks.join(''));
    // Between two turns at most one chunk was handed over.
    for (let i = 1; i < turns.length; i++) expect(turns[i] - turns[i - 1]).toBeLessThanOrEqual(1);
  });

  it('stop(): the sink gets nothing more, the rest of the source flows away', async () => {
    const source = new PassThrough();
    const got: string[] = [];
    const sink = new Writable({ write: (c, _e, done) => (got.push(String(c)), done()) });
    const stop = feedInTurns(source, sink);
    source.write('a');
    await new Promise((r) => setImmediate(r));
    stop();
    source.write('b');
    source.end('c');
    await new Promise((r) => source.on('end', r));
    expect(got).toEqual(['a']);
  });
});
