/**
 * Roles and who may do what: the one place for access rules (decisions.md "Roles").
 *
 * Stored role values are `worker`, `admin` (administrator, the reviewer) and `manager`. `access.<area>`
 * lists the roles allowed in each area; every route names one of these lists, and the HTTP layer enforces it
 * in `http/auth.ts`.
 */
import { domainError } from '../domain/errors.ts';

export const ROLES = ['worker', 'admin', 'manager'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { worker: '员工', admin: '管理员', manager: '经理' };

export const access = {
  /** products, people, device codes */
  masterData: ['admin', 'manager'],
  /** clocking, drafts, submission, own reports */
  worker: ['worker'],
  /** pending, approve, reject, own reviews */
  review: ['admin'],
  /** break minutes */
  breakMinutes: ['manager'],
  /** dashboard and audit log */
  insight: ['manager', 'admin'],
  /** the web console: who may confirm a scan-to-login or get a console link, and in which roles */
  console: ['admin', 'manager'],
  /** piece rates (set and read), the months' wages, their statements and export, the list of months */
  wages: ['admin', 'manager'],
  /** closing and reopening a month */
  periodClose: ['manager'],
  /** a worker's own wage statement */
  ownWages: ['worker'],
  // organization
  /** workshops, teams, memberships, devices' workshops (and part B: shifts): maintaining and reading them */
  organization: ['admin', 'manager'],
  // ---- scopes ----
  /** setting a person's scope (workshops, teams): managers; nobody sets their own (a reviewer never widens it) */
  scopes: ['manager'],
  /** work orders (生产工单): maintaining, completing, closing and reading them; workers see orders only in the draft */
  workOrders: ['admin', 'manager'],
} as const satisfies Record<string, readonly Role[]>;

/** Type guard: true when `v` is one of the stored role values `worker`, `admin`, `manager`. */
export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);

/** ROLE_REVOKED (401 at the edge): the token's person no longer holds its role in personnel (or was removed). */
export const roleRevoked = () => domainError('ROLE_REVOKED');
