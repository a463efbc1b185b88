/**
 * Long work in slices (issue #14 item 8): the JSON a ChunkedJson answer writes piece by piece is exactly
 * JSON.stringify's, and the slice helpers (shared/turns.ts) give back what they were given.
 */
import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { ChunkedJson } from '../../src/http/chunked-json.ts';
import { jsonArrayInSlices, jsonSlices, parseArraysInTurns, SLICE } from '../../src/shared/turns.ts';

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
