/**
 * The signed-in account of the console: read from GET /api/auth/me with the session cookie (the
 * token stays in the HttpOnly cookie), the pages each role sees, sign-out and switching between the console roles.
 * Which role may call what is the service's rule (src/auth/roles.ts); the console only hides what a role cannot use.
 * The roles the person holds are read again (`refreshRoles`) on every page change, when the account menu opens and
 * after the 人员 page changes the signed-in person, so a role given meanwhile can be switched to without a reload.
 */
import { reactive } from 'vue';
import { api, ApiError, setUnauthorizedHandler, unwrap } from './api/client';
import type { Account, Role } from './api/types';

export const session = reactive<{ account: Account | null; checked: boolean }>({ account: null, checked: false });

export interface PageEntry {
  path: string;
  title: string;
  roles: Role[];
}

/** The console's pages in menu order, with the roles that see them. */
export const PAGES: PageEntry[] = [
  { path: '/review', title: '审核', roles: ['admin'] },
  { path: '/dashboard', title: '看板', roles: ['admin', 'manager'] },
  // defect reasons: the Pareto of defective pieces
  { path: '/quality', title: '质量', roles: ['admin', 'manager'] },
  // downtime: OEE by device, the losses and the stops
  { path: '/oee', title: '设备效率', roles: ['admin', 'manager'] },
  { path: '/reports', title: '报工单', roles: ['admin', 'manager'] },
  { path: '/wages', title: '工资', roles: ['admin', 'manager'] },
  { path: '/periods', title: '月结', roles: ['admin', 'manager'] },
  { path: '/products', title: '产品', roles: ['admin', 'manager'] },
  // defect reasons
  { path: '/defect-reasons', title: '不良原因', roles: ['admin', 'manager'] },
  // downtime: the stop reasons
  { path: '/stop-reasons', title: '停机原因', roles: ['admin', 'manager'] },
  { path: '/people', title: '人员', roles: ['admin', 'manager'] },
  { path: '/devices', title: '设备码', roles: ['admin', 'manager'] },
  // organization
  { path: '/organization', title: '车间班组', roles: ['admin', 'manager'] },
  // shifts
  { path: '/shifts', title: '班次', roles: ['admin', 'manager'] },
  // work orders
  { path: '/work-orders', title: '工单', roles: ['admin', 'manager'] },
];

export const CONSOLE_ROLES: Role[] = ['admin', 'manager'];

/** The first page of `role`. */
export const homeOf = (role: Role | undefined): string => PAGES.find((p) => role && p.roles.includes(role))?.path ?? '/login';

/** Counts the changes of the session made here (a switch, a sign-out): an older read of the account must not undo them. */
let generation = 0;

/** Loads the account (null when not signed in). */
export async function loadSession(): Promise<Account | null> {
  generation++;
  try {
    session.account = await unwrap(api.GET('/api/auth/me'));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    session.account = null;
  } finally {
    session.checked = true;
  }
  return session.account;
}

/**
 * Reads the signed-in account again (the roles the person holds now, their name), quietly: a failure keeps what is
 * shown (a lost session goes to the login page through the 401 handler). Nothing when not signed in.
 */
export async function refreshRoles(): Promise<void> {
  if (!session.account) return;
  const at = ++generation;
  try {
    const a = await unwrap(api.GET('/api/auth/me'));
    if (at === generation && session.account) session.account = a;
  } catch {
    // kept as it was
  }
}

/** Ends the session (the service expires the cookie). */
export async function signOut(): Promise<void> {
  generation++;
  await unwrap(api.DELETE('/api/auth/web-session'));
  session.account = null;
}

/** Switches the session to another console role the person holds. */
export async function switchRole(role: 'admin' | 'manager'): Promise<void> {
  generation++;
  await unwrap(api.POST('/api/auth/web-session/switch-role', { body: { role } }));
  // The account again, with the new role's scope (each role has its own).
  await loadSession();
  generation++;
}

/** Whether the signed-in person holds `role` (whether the console can offer to switch to it). */
export const holds = (role: Role): boolean => session.account?.roles.includes(role) ?? false;

/** The pages `role` sees include `path` (its first segment, as the menu names pages). */
export const roleSees = (role: Role, path: string): boolean => {
  const first = '/' + (path.split('/')[1] ?? '');
  return PAGES.some((p) => p.path === first && p.roles.includes(role));
};

/** Sends the user to the login page when the service says the session is over (set by main.ts). */
export function onSessionLost(go: (path: string) => void): void {
  setUnauthorizedHandler(() => {
    if (!session.account) return;
    session.account = null;
    go('/login');
  });
}
