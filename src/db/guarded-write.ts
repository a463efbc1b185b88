/**
 * A guarded write: ONE SQL statement that evaluates its guards and, only when every guard holds, runs
 * its writes. A command appends its events, writes its inline read-model rows and checks the facts it decided on
 * this way: atomically (one statement is one implicit transaction, also outside BEGIN … COMMIT) and in one round
 * trip. Several modules contribute to one statement without knowing each other: the event store adds the streams'
 * heads, the expected-version guard and the INSERT of the events (events/store.ts); the command path adds the guard
 * of its facts (commands/facts.ts); the inline projections add their row writes (projections/row-writes.ts).
 *
 * The statement:
 *   WITH <inputs: named queries that guards and writes read>,
 *        checks AS (SELECT g.*, <name₁ AND …> AS all_hold FROM (SELECT <guard₁> AS <name₁>, …) g),
 *        w0 AS (<write₀, a data-modifying statement that runs only when checks.all_hold>), …
 *   SELECT checks.*, r.* FROM checks LEFT JOIN w<k> r ON true      -- w<k>: the write whose RETURNING rows come back
 * Parameters are placeholders bound by `param(value)`. `run(q)` sends it as one Statement (its `key`, when set,
 * names the rows it writes: db/group-commit.ts groups and orders statements by it) and answers which guards held
 * and the returned rows (none when a guard failed; with a LEFT JOIN, one row of nulls when the write returned none).
 * The same parts give the very same text string (kept per process), so that composing a command's statement costs
 * a few map lookups rather than building several kB of SQL.
 */
import type pg from 'pg';
import type { Statement, StatementRunner } from './transaction.ts';

/** What a write must say for it to run only when the guards hold: a FROM item and a condition over it. */
export interface WhenGuardsHold {
  /** A FROM item (`checks`) to add to the write's FROM list. */
  readonly from: string;
  /** The condition to add to the write's WHERE clause. */
  readonly condition: string;
}

/** The outcome of a guarded write: each guard's value, and the rows of the returning write (empty when a guard failed). */
export interface GuardedWriteResult {
  readonly held: Readonly<Record<string, boolean>>;
  readonly rows: readonly pg.QueryResultRow[];
}

/** Thrown by whoever ran a guarded write when guards it does not own failed (nothing was written). */
export class GuardFailed extends Error {
  constructor(readonly guards: readonly string[]) {
    super(`guards failed: ${guards.join(', ')}`);
    this.name = 'GuardFailed';
  }
}

const NAME = /^[a-z_][a-z0-9_]*$/;
const name = (n: string) => {
  if (!NAME.test(n)) throw new Error(`guarded write: bad name ${n}`);
  return n;
};

/** The condition every write adds: all guards hold (a column of `checks`). */
const WHEN: WhenGuardsHold = { from: 'checks', condition: 'checks.all_hold' };

/**
 * Statement texts by their parts: a trie over the parts' strings, so that a write composed of the same parts as
 * before gets the very same text (built once, its hash kept by V8: cheap to look up as a prepared statement's
 * name). At most MAX_TEXTS texts are kept; others are built each time.
 */
interface TextNode {
  readonly next: Map<string, TextNode>;
  text?: string;
}
const texts: TextNode = { next: new Map() };
let textCount = 0;
const MAX_TEXTS = 2000;
const SEPARATOR = '\u0000';

/** One guarded write being composed (module docstring). */
export class GuardedWrite {
  /** The values bound to the placeholders, in order. */
  readonly values: unknown[] = [];
  private readonly inputs: string[] = [];
  private readonly guards: string[] = [];
  private readonly guardNames: string[] = [];
  private readonly writes: string[] = [];
  private returning = -1;

  /** @param key the key of the rows this statement writes (Statement.key), if any. */
  constructor(readonly key?: string) {}

  /** A placeholder (`$n`) bound to `value`. */
  param(value: unknown): string {
    return `$${this.values.push(value)}`;
  }

  /** Adds the named query `sql` (a CTE) that guards and writes may read as `name`. */
  input(inputName: string, sql: string): void {
    this.inputs.push(`${name(inputName)} AS (${sql})`);
  }

  /** Adds a guard: the boolean SQL expression `sql` must hold for anything to be written; answered as `guardName`. */
  guard(guardName: string, sql: string): void {
    if (this.guardNames.includes(guardName)) throw new Error(`guarded write: guard ${guardName} given twice`);
    this.guardNames.push(name(guardName));
    this.guards.push(`(${sql}) AS ${guardName}`);
  }

  /**
   * Adds a data-modifying statement, built by `sql(when)`: it must add `when.from` to its FROM list and
   * `when.condition` to its WHERE clause (its placeholders taken with `param` beforehand). With `returning`, its
   * RETURNING rows are the result's rows (one write at most).
   */
  write(sql: (when: WhenGuardsHold) => string, options: { returning?: boolean } = {}): void {
    if (options.returning) {
      if (this.returning >= 0) throw new Error('guarded write: only one write may return rows');
      this.returning = this.writes.length;
    }
    this.writes.push(sql(WHEN));
  }

  /** The statement's text (module docstring); the same parts give the same string. */
  text(): string {
    let node = texts;
    for (const part of [...this.inputs, SEPARATOR, ...this.guards, SEPARATOR, ...this.writes, SEPARATOR, String(this.returning)]) {
      let next = node.next.get(part);
      if (!next) {
        if (textCount >= MAX_TEXTS) return this.build();
        node.next.set(part, (next = { next: new Map() }));
      }
      node = next;
    }
    if (node.text === undefined) {
      node.text = this.build();
      textCount++;
    }
    return node.text;
  }

  private build(): string {
    const names = this.guardNames;
    const all = names.length ? names.map((g) => `g.${g}`).join(' AND ') : 'true';
    const ctes = [
      ...this.inputs,
      `checks AS (SELECT g.*, ${all} AS all_hold FROM (SELECT ${this.guards.length ? this.guards.join(', ') : 'true AS none'}) g)`,
      ...this.writes.map((w, i) => `w${i} AS (${w})`),
    ];
    const result = this.returning >= 0 ? `SELECT checks.*, r.* FROM checks LEFT JOIN w${this.returning} r ON true` : 'SELECT checks.* FROM checks';
    return `WITH ${ctes.join(',\n')}\n${result}`;
  }

  /** The statement to send (text, values and key). */
  statement(): Statement {
    return { text: this.text(), values: this.values, ...(this.key !== undefined ? { key: this.key } : {}) };
  }

  /** Runs the statement through `q` → which guards held, and the returned rows (only when all held). */
  async run(q: StatementRunner): Promise<GuardedWriteResult> {
    const res = await q.query(this.statement());
    const first = res.rows[0] ?? {};
    const held: Record<string, boolean> = {};
    for (const g of this.guardNames) held[g] = first[g] === true;
    const all = this.guardNames.every((g) => held[g]);
    return { held, rows: all && this.returning >= 0 ? res.rows : [] };
  }
}
