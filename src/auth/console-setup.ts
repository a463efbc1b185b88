/**
 * What the console's login page needs before anyone is signed in (with no administrator in personnel yet,
 * the login page says how to add the first one and, with the simulator, offers to):
 * - `consoleSetup(ctx)` → `{hasAdministrator, simulator, people?}`: `people` (at most SIMULATED_PEOPLE_MAX persons
 *   holding a console role, with their roles) only while the platform simulator runs, for 模拟扫码;
 * - `addFirstAdministrator(ctx, {phone, name})`: with the simulator only (403 SIMULATOR_ONLY otherwise), and only
 *   while personnel holds no administrator (409 ADMINISTRATOR_EXISTS); the phone and name follow the personnel
 *   rules (422 PERSON_INVALID).
 * In production (WX_APPID set) the simulator does not exist: no people are listed and nobody can be added here.
 */
import type { AppContext } from '../context.ts';
import { AppError, conflict } from '../errors.ts';
import { savePerson } from '../people/service.ts';
import { peopleOf } from './login.ts';
import { access } from './roles.ts';
import { hasAdministrator } from './web-login.ts';

export const SIMULATED_PEOPLE_MAX = 50;

/** GET /api/auth/web-login/setup (module docstring). */
export async function consoleSetup(ctx: AppContext) {
  const simulator = ctx.simulator !== undefined;
  const out = { hasAdministrator: await hasAdministrator(ctx), simulator };
  if (!simulator) return out;
  const r = await ctx.db.pool.query(
    `SELECT phone FROM personnel WHERE role = ANY($1::text[]) GROUP BY phone ORDER BY min(name), phone LIMIT $2`,
    [access.console, SIMULATED_PEOPLE_MAX],
  );
  return { ...out, people: await peopleOf(ctx.db.pool, r.rows.map((x) => x.phone as string)) };
}

/** POST /api/auth/web-login/first-admin (module docstring) → `{person, result}` of savePerson. */
export async function addFirstAdministrator(ctx: AppContext, input: { phone: string; name: string }) {
  if (!ctx.simulator) throw new AppError(403, 'SIMULATOR_ONLY', '只有使用模拟器时才能在网页上添加第一位管理员；请在服务器上运行 npm run cli -- console-link <手机号> <姓名>');
  if (await hasAdministrator(ctx)) throw conflict('ADMINISTRATOR_EXISTS', '已经有管理员了，请让管理员登录后在「人员」中添加');
  return savePerson(ctx, { ...input, role: 'admin' });
}
