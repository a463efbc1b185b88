/**
 * Personnel rules (spec 2.2; decisions.md "Roles", "Spreadsheet import"): the one place that turns raw values —
 * spreadsheet cells or the fields of `POST /api/people` — into a checked person.
 *
 * - 手机号: a Chinese mobile number, 11 digits starting 13–19. Numeric cells, spaces, dashes (`138-0013-8000`)
 *   and a +86 / 0086 prefix are accepted and removed.
 * - 姓名: required, trimmed, at most 50 characters.
 * - 角色: a stored value (`worker`, `admin`, `manager`, any case) or 员工 / 工人 / 操作工 (worker),
 *   管理员 / 审核员 (admin), 经理 / 主管 / 管理者 (manager). Several roles in one cell may be separated by
 *   、 , ， / ; or spaces.
 *
 * Problem codes: no_phone, bad_phone, no_name, name_too_long, no_role, unknown_role, error_cell,
 * uncomputed_formula, invalid_characters.
 */
import type { Role } from '../auth/roles.ts';
import { ROLE_LABELS } from '../auth/roles.ts';
import { cellText, type CellValue } from '../spreadsheet/cells.ts';
import { cellProblem, type Problem } from '../imports/problems.ts';

export const MAX_NAME_LENGTH = 50;

// A Map, not an object: a role text such as `constructor` or `__proto__` must find nothing.
export const ROLE_ALIASES: ReadonlyMap<string, Role> = new Map(Object.entries({
  worker: 'worker',
  员工: 'worker',
  工人: 'worker',
  操作工: 'worker',
  admin: 'admin',
  管理员: 'admin',
  审核员: 'admin',
  manager: 'manager',
  经理: 'manager',
  主管: 'manager',
  管理者: 'manager',
} satisfies Record<string, Role>));

/** The stored role for a role text (stored value or Chinese alias), or undefined. */
export function roleOf(text: string): Role | undefined {
  return ROLE_ALIASES.get(text.trim().toLowerCase());
}

const ROLE_HINT = `可填：${Object.values(ROLE_LABELS).join('、')}（或 worker、admin、manager）`;

/** Normalises a phone number to its 11 digits, or undefined when it is not a Chinese mobile number. */
export function normalizePhone(v: CellValue): string | undefined {
  let digits: string;
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) return undefined;
    digits = String(v);
  } else if (typeof v === 'string') {
    const s = v.trim().replace(/[\uFF10-\uFF19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
    if (!/^\+?[\d\s\-－—–.()（）]+$/.test(s)) return undefined;
    digits = s.replace(/\D/g, '');
    if (s.startsWith('+') || digits.length > 11) digits = digits.replace(/^(?:0086|86)/, '');
  } else {
    return undefined;
  }
  return /^1[3-9]\d{9}$/.test(digits) ? digits : undefined;
}

export interface PersonInput {
  phone: CellValue;
  name: CellValue;
  role: CellValue;
}

export type PersonCheck = { ok: true; phone: string; name: string; roles: Role[] } | { ok: false; problems: Problem[] };

/** Checks one person row (which may name several roles). Never throws. */
export function checkPerson(raw: PersonInput): PersonCheck {
  const problems: Problem[] = [];

  let phone: string | undefined;
  const phoneCell = cellProblem('手机号', 'phone', raw.phone);
  if (phoneCell) problems.push(phoneCell);
  else if (cellText(raw.phone) === null) problems.push({ code: 'no_phone', field: 'phone', reason: '手机号为空，请填写 11 位手机号' });
  else {
    phone = normalizePhone(raw.phone);
    if (!phone) {
      problems.push({ code: 'bad_phone', field: 'phone', reason: `手机号「${cellText(raw.phone)}」不是 11 位手机号码，请检查是否多写或漏写了数字` });
    }
  }

  let name: string | null = null;
  const nameCell = cellProblem('姓名', 'name', raw.name);
  if (nameCell) problems.push(nameCell);
  else {
    name = cellText(raw.name);
    if (name === null) problems.push({ code: 'no_name', field: 'name', reason: '姓名为空，请填写姓名' });
    else if (name.length > MAX_NAME_LENGTH) problems.push({ code: 'name_too_long', field: 'name', reason: `姓名超过 ${MAX_NAME_LENGTH} 个字` });
  }

  const roles: Role[] = [];
  const roleCell = cellProblem('角色', 'role', raw.role);
  const roleText = cellText(raw.role);
  if (roleCell) problems.push(roleCell);
  else if (roleText === null) problems.push({ code: 'no_role', field: 'role', reason: `角色为空，${ROLE_HINT}` });
  else {
    const unknown: string[] = [];
    for (const part of roleText.split(/[、,，/／;；\s]+/).filter(Boolean)) {
      const r = roleOf(part);
      if (!r) unknown.push(part);
      else if (!roles.includes(r)) roles.push(r);
    }
    if (unknown.length) problems.push({ code: 'unknown_role', field: 'role', reason: `角色「${unknown.join('、')}」无法识别，${ROLE_HINT}` });
  }

  if (problems.length) return { ok: false, problems };
  return { ok: true, phone: phone!, name: name!, roles };
}
