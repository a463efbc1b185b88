/**
 * A writer process for the concurrent-append test: `tsx concurrent-writer.ts <databaseUrl> <tag> <writers> <events>`.
 * Runs `writers` concurrent loops, each appending `events` single-event transactions to its own stream, holding
 * each transaction open for a random short while so that commits land out of position order.
 */
import pg from 'pg';
import { EventStore } from '../../src/events/store.ts';
import { withTransaction } from '../../src/db/transaction.ts';
import { testRegistry } from '../helpers/test-events.ts';

const [url, tag, writers, perWriter] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: Number(writers) });
const store = new EventStore(testRegistry);

await Promise.all(
  Array.from({ length: Number(writers) }, async (_, w) => {
    const streamId = `${tag}-w${w}`;
    for (let i = 0; i < Number(perWriter); i++) {
      await withTransaction(pool, async (tx) => {
        await store.append(tx, [{ streamId, expectedVersion: i, events: [{ type: 'Counted', data: { n: i, label: streamId } }] }], {}, new Date());
        if (Math.random() < 0.3) await new Promise((r) => setTimeout(r, Math.random() * 4));
      });
    }
  }),
);
await pool.end();
