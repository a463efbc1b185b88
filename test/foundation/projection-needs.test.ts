/**
 * Async projections with `needs` and scans (src/projections/runner.ts; the wages reprice lines found
 * through other rows): a test projection over `Counted` events keeps items per stream, and an event with n = 0
 * "reprices" every item of its stream by its label's factor — items found by a scan, and each item's label row
 * found through the item (a second level). Applied one event per batch, three per batch, or all in one batch
 * (where scans must see the rows earlier events of the same batch wrote), the tables come out the same.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { EventStore, type StoredEvent } from '../../src/events/store.ts';
import type { Projection } from '../../src/projections/projection.ts';
import { projectBatch } from '../../src/projections/runner.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { testRegistry } from '../helpers/test-events.ts';

let db: Database;
const store = new EventStore(testRegistry);

beforeAll(async () => {
  db = await openTestDatabase();
  await runMigrations(db.pool);
  await db.pool.query(`CREATE TABLE test_items (stream_id text, seq integer, label text, n integer, value numeric, PRIMARY KEY (stream_id, seq))`);
  await db.pool.query(`CREATE TABLE test_labels (label text PRIMARY KEY, factor integer, total numeric)`);
});
afterAll(() => db.close());
beforeEach(async () => {
  await db.pool.query(`TRUNCATE events, test_items, test_labels`);
});

const items = { table: 'test_items' } as const;
/**
 * n > 0: an item worth n × its label's factor × 10^15 (the label's total grows); n < 0: the label's factor
 * becomes −n; n = 0: every item of the stream is valued again at its label's current factor (totals follow).
 * Values are exact text (numeric), beyond 2^53.
 */
const projection: Projection = {
  name: 'test-needs',
  mode: 'async',
  tables: [
    { name: 'test_items', key: ['stream_id', 'seq'], columns: ['stream_id', 'seq', 'label', 'n', 'value'], exact: ['value'] },
    { name: 'test_labels', key: ['label'], columns: ['label', 'factor', 'total'], exact: ['total'] },
  ],
  eventTypes: ['Counted'],
  touches: (e) => (e.data.n === 0 ? [] : [{ table: 'test_labels', key: [e.data.label] }]),
  needs(e, view) {
    if (e.data.n !== 0) return [];
    const scan = { ...items, where: { stream_id: { eq: e.streamId } } };
    return [scan, ...(view.scan?.(scan.table, scan.where) ?? []).map((i) => ({ table: 'test_labels', key: [i.label] }))];
  },
  apply(e, view) {
    const { n, label } = e.data as { n: number; label: string };
    const labelRow = (l: string) => view.get('test_labels', [l]) ?? { label: l, factor: 1, total: '0' };
    if (n < 0) return [{ table: 'test_labels', key: [label], row: { ...labelRow(label), factor: -n } }];
    if (n > 0) {
      const l = labelRow(label);
      const value = BigInt(n) * BigInt(l.factor as number) * 10n ** 15n;
      const row = { stream_id: e.streamId, seq: e.streamVersion, label, n, value: String(value) };
      return [{ table: 'test_items', key: [e.streamId, e.streamVersion], row }, { table: 'test_labels', key: [label], row: { ...l, total: String(BigInt(l.total as string) + value) } }];
    }
    const labels = new Map<string, Record<string, unknown>>();
    const out = [];
    for (const item of view.scan!('test_items', { stream_id: { eq: e.streamId } })) {
      const l = labels.get(item.label as string) ?? { ...labelRow(item.label as string) };
      labels.set(item.label as string, l);
      const value = BigInt(item.n as number) * BigInt(l.factor as number) * 10n ** 15n;
      l.total = String(BigInt(l.total as string) - BigInt(item.value as string) + value);
      out.push({ table: 'test_items', key: [item.stream_id, item.seq], row: { ...item, value: String(value) } });
    }
    return [...out, ...[...labels.values()].map((l) => ({ table: 'test_labels', key: [l.label], row: l }))];
  },
};

const dump = async () => ({
  items: (await db.pool.query(`SELECT stream_id, seq, label, n, value::text FROM test_items ORDER BY 1, 2`)).rows,
  labels: (await db.pool.query(`SELECT label, factor, total::text FROM test_labels ORDER BY 1`)).rows,
});

it('gives the same tables one event per batch, three per batch and all in one batch; scans see the batch’s own writes', async () => {
  const stream: [string, number, string][] = [
    ['a', 2, 'x'], ['a', 3, 'y'], ['b', 5, 'x'], ['a', 0, '-'], ['x', -4, 'x'], ['b', 7, 'y'], ['a', 0, '-'],
    ['b', 0, '-'], ['y', -9, 'y'], ['a', 1, 'x'], ['b', 0, '-'], ['a', 0, '-'],
  ];
  for (const [s, n, label] of stream) {
    await store.append(db.pool, [{ streamId: s, expectedVersion: 'any', events: [{ type: 'Counted', data: { n, label } }] }], {}, new Date());
  }
  const events: StoredEvent<any>[] = await store.readByPosition(db.pool, 0, 1000);
  const results = [];
  for (const size of [1, 3, events.length]) {
    await db.pool.query(`TRUNCATE test_items, test_labels`);
    for (let i = 0; i < events.length; i += size) await projectBatch(db.pool, projection, events.slice(i, i + size));
    results.push(await dump());
  }
  expect(results[1]).toEqual(results[0]);
  expect(results[2]).toEqual(results[0]);
  // By hand: both streams were last valued with x = 4 and y = 9: a's 2x, 3y, 1x → 8, 27, 4; b's 5x, 7y → 20, 63.
  const e15 = '000000000000000';
  expect(results[0].items.map((i: any) => [i.stream_id, i.label, i.value])).toEqual([
    ['a', 'x', `8${e15}`],
    ['a', 'y', `27${e15}`],
    ['a', 'x', `4${e15}`],
    ['b', 'x', `20${e15}`],
    ['b', 'y', `63${e15}`],
  ]);
  expect(results[0].labels).toEqual([
    { label: 'x', factor: 4, total: `32${e15}` },
    { label: 'y', factor: 9, total: `90${e15}` },
  ]);
});
