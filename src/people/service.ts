/**
 * Single-record personnel maintenance (spec 4.3; decisions.md "Roles").
 *
 * `savePerson(ctx, raw)` checks phone, name and role(s) with the import rules (src/people/rules.ts), then adds
 * each role; a different name renames the phone (all roles). → `{person, result}`; throws 422 PERSON_INVALID.
 * `removePersonRole(ctx, phone, role)` removes one role; 404 PERSON_ROLE_NOT_FOUND when the phone does not
 * hold it. Tokens of the removed role stop working at once (src/http/auth.ts reads personnel per request).
 */
import type { AppContext } from '../context.ts';
import { withTransaction } from '../db/transaction.ts';
import { notFound, unprocessable } from '../errors.ts';
import { ROLE_LABELS, type Role } from '../auth/roles.ts';
import type { CellValue } from '../spreadsheet/cells.ts';
import { checkPerson, normalizePhone } from './rules.ts';
import { deletePersonRole, savePersonRole, type Person } from './store.ts';

/**
 * POST /api/people (spec 4.3): checks `{phone, name, role}` with the import rules and saves each role in one
 * transaction; a different name renames the phone → `{person, result: 'created' | 'updated' | 'unchanged'}`.
 * Throws AppError 422 PERSON_INVALID with the problems as `details`.
 */
export async function savePerson(
  ctx: AppContext,
  raw: { phone: CellValue; name: CellValue; role: CellValue },
): Promise<{ person: Person; result: 'created' | 'updated' | 'unchanged' }> {
  const c = checkPerson(raw);
  if (!c.ok) throw unprocessable('PERSON_INVALID', c.problems.map((p) => p.reason).join('；'), c.problems);
  return withTransaction(ctx.db.pool, async (tx) => {
    const now = ctx.clock.now();
    let out: { person: Person; result: 'created' | 'updated' | 'unchanged' } | undefined;
    for (const role of c.roles) {
      const step = await savePersonRole(tx, { phone: c.phone, name: c.name, role }, now);
      const result = !out ? step.result : out.result === 'created' || step.result === 'unchanged' ? out.result : 'updated';
      out = { person: step.person, result };
    }
    return out!;
  });
}

/**
 * DELETE /api/people/:phone?role= (spec 4.3): removes one role of the phone (normalized when it parses as a phone,
 * else as given). Throws AppError 404 PERSON_ROLE_NOT_FOUND when the phone does not hold `role`.
 */
export async function removePersonRole(ctx: AppContext, phoneText: string, role: Role): Promise<void> {
  const phone = normalizePhone(phoneText) ?? phoneText;
  if (!(await deletePersonRole(ctx.db.pool, phone, role))) {
    throw notFound('PERSON_ROLE_NOT_FOUND', `手机号 ${phone} 没有「${ROLE_LABELS[role]}」角色`);
  }
}
