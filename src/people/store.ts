/**
 * SQL of the `personnel` table (migrations/002; spec 2.2): one record per phone + role, one name per phone.
 * The auth guard (src/http/auth.ts) reads the same table on every request, so a removed role stops working at
 * once.
 */
import type pg from 'pg';
import { ROLES, type Role } from '../auth/roles.ts';
import type { Queryable } from '../db/transaction.ts';
import { limitOffset, type PageQuery } from '../shared/page.ts';
import { toZonedIso } from '../time.ts';
import { likePattern } from '../products/store.ts';

/** A person: one phone, one name, every role held (in the order worker, admin, manager). */
export interface Person {
  phone: string;
  name: string;
  roles: Role[];
}

const byRoleOrder = (a: Role, b: Role) => ROLES.indexOf(a) - ROLES.indexOf(b);

/** The stored people with these phones, by phone. */
export async function findPeople(q: Queryable, phones: readonly string[]): Promise<Map<string, Person>> {
  const out = new Map<string, Person>();
  if (phones.length === 0) return out;
  const r = await q.query<{ phone: string; name: string; role: Role }>(
    `SELECT phone, name, role FROM personnel WHERE phone = ANY($1::text[]) ORDER BY phone, role`,
    [[...new Set(phones)]],
  );
  for (const row of r.rows) {
    const p = out.get(row.phone);
    // Two names for one phone cannot be written by this service; should it happen, the first one counts.
    if (p) p.roles.push(row.role);
    else out.set(row.phone, { phone: row.phone, name: row.name, roles: [row.role] });
  }
  for (const p of out.values()) p.roles.sort(byRoleOrder);
  return out;
}

/** Inserts personnel records (phone + role must not exist yet). */
export async function insertPersonnel(q: Queryable, records: readonly { phone: string; name: string; role: Role }[], now: Date): Promise<void> {
  if (records.length === 0) return;
  await q.query(
    `INSERT INTO personnel (phone, name, role, created_at)
     SELECT t.phone, t.name, t.role, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(phone, name, role)`,
    [records.map((r) => r.phone), records.map((r) => r.name), records.map((r) => r.role), now],
  );
}

/**
 * Creates or updates one person's role: adds the role when missing, and renames the phone (all its roles)
 * when the name differs — a deliberate single-record edit, unlike the import, which refuses another name.
 * Serialised per phone by an advisory lock, so two requests cannot bind one phone to two names.
 */
export async function savePersonRole(
  tx: pg.PoolClient,
  input: { phone: string; name: string; role: Role },
  now: Date,
): Promise<{ person: Person; result: 'created' | 'updated' | 'unchanged' }> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('personnel:' || $1))`, [input.phone]);
  const before = (await findPeople(tx, [input.phone])).get(input.phone);
  let result: 'created' | 'updated' | 'unchanged' = 'unchanged';
  if (before && before.name !== input.name) {
    await tx.query(`UPDATE personnel SET name = $2 WHERE phone = $1`, [input.phone, input.name]);
    result = 'updated';
  }
  if (!before?.roles.includes(input.role)) {
    await insertPersonnel(tx, [input], now);
    result = before ? 'updated' : 'created';
  }
  const person = (await findPeople(tx, [input.phone])).get(input.phone)!;
  return { person, result };
}

/** Removes one role of a phone; false when the phone does not hold it. */
export async function deletePersonRole(q: Queryable, phone: string, role: Role): Promise<boolean> {
  const r = await q.query(`DELETE FROM personnel WHERE phone = $1 AND role = $2`, [phone, role]);
  return (r.rowCount ?? 0) > 0;
}

export interface PersonListItem extends Person {
  /** When the phone's first role was added (ISO 8601 with offset). */
  createdAt: string;
  /**
   * The scope of each reviewing role the person holds (admin, manager; domain/scope.ts): codes of
   * workshops and teams, both empty = the whole factory.
   */
  scope: { role: 'admin' | 'manager'; workshops: string[]; teams: string[] }[];
}

/** A page of people (one item per phone, with all roles), ordered by phone. `keyword` matches phone or name. */
export async function listPeople(
  q: Queryable,
  filter: { keyword?: string; role?: Role },
  page: PageQuery,
  timeZone: string,
): Promise<{ items: PersonListItem[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.keyword) {
    params.push(likePattern(filter.keyword));
    where.push(`(phone LIKE $${params.length} OR name ILIKE $${params.length})`);
  }
  if (filter.role) {
    params.push(filter.role);
    where.push(`phone IN (SELECT phone FROM personnel WHERE role = $${params.length})`);
  }
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { limit, offset } = limitOffset(page);
  const total = await q.query<{ n: number }>(`SELECT count(DISTINCT phone)::int AS n FROM personnel ${w}`, params);
  const rows = await q.query<{ phone: string; name: string; roles: Role[]; created_at: Date; scope: PersonListItem['scope'] }>(
    `SELECT g.*,
            COALESCE((SELECT json_agg(json_build_object('role', p.role, 'workshops', COALESCE(s.workshops, '{}'), 'teams', COALESCE(s.teams, '{}')) ORDER BY p.role)
                        FROM personnel p LEFT JOIN scopes s ON s.phone = p.phone AND s.role = p.role
                       WHERE p.phone = g.phone AND p.role IN ('admin', 'manager')), '[]') AS scope
       FROM (SELECT phone, min(name) AS name, array_agg(role ORDER BY role) AS roles, min(created_at) AS created_at
               FROM personnel ${w} GROUP BY phone ORDER BY phone LIMIT $${params.length + 1} OFFSET $${params.length + 2}) g
      ORDER BY g.phone`,
    [...params, limit, offset],
  );
  return {
    items: rows.rows.map((r) => ({
      phone: r.phone,
      name: r.name,
      roles: [...r.roles].sort(byRoleOrder),
      createdAt: toZonedIso(r.created_at, timeZone),
      scope: r.scope,
    })),
    total: total.rows[0].n,
  };
}
