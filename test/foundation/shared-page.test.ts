/**
 * The background round's shared page (src/projections/shared-page.ts): every consumer gets exactly the events after
 * its own checkpoint, of its own types, once each, as when it reads for itself; a page that was full, a checkpoint
 * moved past the page and an event committed after the page are read for itself.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../../src/events/define.ts';
import { EventRegistry } from '../../src/events/registry.ts';
import { EventStore } from '../../src/events/store.ts';
import { catchUp, catchUpAt, runConsumerBatch, type AsyncConsumer } from '../../src/projections/consumer.ts';
import { SharedPage } from '../../src/projections/shared-page.ts';
import { useMigratedDatabase } from '../helpers/db.ts';
import { Counted } from '../helpers/test-events.ts';

const Noted = defineEvent({ type: 'Noted', version: 1, schema: z.object({ n: z.number().int() }) });
const store = new EventStore(new EventRegistry([Counted, Noted]));
const at = new Date('2026-03-02T00:00:00Z');
const database = useMigratedDatabase(['events', 'projection_checkpoints']);

/** Appends one event per number: Counted for even ones, Noted for odd ones (data {n}). */
async function write(ns: number[]) {
  const events = ns.map((n) => (n % 2 === 0 ? { type: 'Counted', data: { n, label: '' } } : { type: 'Noted', data: { n } }));
  await store.append(database().pool, [{ streamId: `s-${ns[0]}`, expectedVersion: 'any', events: events as any }], {}, at);
}

/**
 * Waits until every event appended is below the commit-safe horizon (store.ts readPageAfter): another test file's
 * transaction still open on the same server holds the readers back until it ends.
 */
async function settled() {
  for (let i = 0; i < 1000; i++) {
    const r = await database().pool.query(`SELECT COALESCE(max(transaction_id) < pg_snapshot_xmin(pg_current_snapshot()), true) AS ok FROM events`);
    if (r.rows[0].ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('events did not settle');
}

/** A consumer that records the numbers it is given, in order. */
function recorder(name: string, eventTypes: string[]): AsyncConsumer & { seen: number[] } {
  const seen: number[] = [];
  return { name, eventTypes, seen, handle: async (_tx, events) => void seen.push(...events.map((e) => e.data.n)) };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('the shared page of a background round', () => {
  it('gives each consumer the events after its own checkpoint, of its types, exactly once', async () => {
    for (let i = 0; i < 12; i += 3) await write(range(i, i + 3));
    await settled();
    const a = recorder('a', ['Counted', 'Noted']);
    const b = recorder('b', ['Counted', 'Noted']);
    const c = recorder('c', ['Noted']);
    await runConsumerBatch(database().pool, store, b, 5); // b is 5 events in, c 2, a at the start
    await runConsumerBatch(database().pool, store, c, 2);
    const page = await SharedPage.read(database().pool, store, [a, b, c], 1000);
    for (const consumer of [a, b, c]) await catchUpAt(database().pool, store, consumer, 1000, page);
    expect(a.seen).toEqual(range(0, 12));
    expect(b.seen).toEqual(range(0, 12));
    expect(c.seen).toEqual(range(0, 12).filter((n) => n % 2 === 1));
    for (const consumer of [a, b, c]) expect(await catchUp(database().pool, store, consumer)).toBe(0);
  });

  it('after a full page each consumer reads on for itself to the end', async () => {
    for (let i = 0; i < 30; i += 3) await write(range(i, i + 3));
    await settled();
    const a = recorder('a', ['Counted', 'Noted']);
    const b = recorder('b', ['Counted']);
    await runConsumerBatch(database().pool, store, b, 3);
    const page = await SharedPage.read(database().pool, store, [a, b], 4);
    await catchUpAt(database().pool, store, a, 4, page);
    await catchUpAt(database().pool, store, b, 4, page);
    expect(a.seen).toEqual(range(0, 30));
    expect(b.seen).toEqual(range(0, 30).filter((n) => n % 2 === 0));
  });

  it('an event committed after the page is not lost, and a checkpoint moved past the page reads for itself', async () => {
    await write([0, 1, 2]);
    await settled();
    const a = recorder('a', ['Counted', 'Noted']);
    const b = recorder('b', ['Counted', 'Noted']);
    const page = await SharedPage.read(database().pool, store, [a, b], 1000);
    await write([3, 4]);
    const cursor = (await catchUpAt(database().pool, store, a, 1000, page)).cursor;
    expect(a.seen).toEqual([0, 1, 2]); // the page's events only: its checkpoint is at the page's end
    const third = await database().pool.query(`SELECT global_position FROM events WHERE (data ->> 'n')::int = 2`);
    expect(cursor.globalPosition).toBe(Number(third.rows[0].global_position));
    await settled();
    await catchUp(database().pool, store, b); // b moves past the page (a request's catch-up) before its turn
    await catchUpAt(database().pool, store, b, 1000, page);
    expect(b.seen).toEqual([0, 1, 2, 3, 4]);
    await catchUp(database().pool, store, a);
    expect(a.seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('an empty page leaves caught-up consumers where they are', async () => {
    const a = recorder('a', ['Counted']);
    const b = recorder('b', ['Noted']);
    const page = await SharedPage.read(database().pool, store, [a, b], 1000);
    expect(await catchUpAt(database().pool, store, a, 1000, page)).toEqual({ read: 0, cursor: { transactionId: '0', globalPosition: 0 } });
    await write([0, 1]);
    await settled();
    expect(await catchUp(database().pool, store, b)).toBe(2); // rows read, of any type
    expect(b.seen).toEqual([1]);
  });
});
