/**
 * PreparingClient: the pool's connection class on PostgreSQL (database.ts), and `statementName(text)`, the name
 * under which it prepares a statement (shared with the group commit, group-commit.ts, which binds statements
 * this class prepared).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

/** At most this many distinct statements are prepared (per process, so per connection too); others run unnamed. */
const MAX_PREPARED = 1000;
const names = new Map<string, string>();

/**
 * The name under which SQL `text` run with `values` is prepared (`s_` and a hash of the text), the same in every
 * connection of this process; undefined when it runs unnamed: without parameters (it may be several statements,
 * which a prepared statement cannot be), or once MAX_PREPARED texts are named.
 */
export function statementName(text: string, values: readonly unknown[]): string | undefined {
  if (values.length === 0) return undefined;
  let name = names.get(text);
  if (!name && names.size < MAX_PREPARED) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A client that runs every parameterised query as a named prepared statement (statementName), so a PostgreSQL
 * server parses and plans each distinct statement once per connection instead of on every call.
 * Parameterised queries are single statements, which is what a prepared statement needs; queries without
 * parameters (migrations, multi-statement scripts) go as they are. SQL texts must not embed values (use
 * parameters), or each value would make a new statement; a cap bounds the damage. On PGlite, whose
 * connections share one backend (where statement names would collide), only the pool's one connection prepares.
 */
export class PreparingClient extends pg.Client {
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values)) {
      const name = statementName(config, values);
      if (name) return super.query({ name, text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}
