/**
 * The organization as the office reads it, from the read model of
 * migrations/013_organization.sql. Local dates are `YYYY-MM-DD` in APP_TIMEZONE.
 *
 * Reports record their own placement (reports.workshop_code / team_code, from ReportSubmitted): filters of reports
 * use those columns, never today's memberships.
 */
import type { Queryable } from '../db/transaction.ts';
import { domainError } from '../domain/errors.ts';
import { membershipCoversSql } from '../domain/membership.ts';

export interface PersonRef {
  phone: string;
  /** The person's name in personnel; null when no longer there. */
  name: string | null;
}

export interface TeamItem {
  code: string;
  name: string;
  workshopCode: string;
  leaders: PersonRef[];
  /** Members on the date asked. */
  memberCount: number;
}

export interface WorkshopItem {
  code: string;
  name: string;
  teams: TeamItem[];
}

/** The name of a phone in personnel (any role), as SQL. */
const nameOf = (phone: string) => `(SELECT min(name) FROM personnel WHERE phone = ${phone})`;

/** Every workshop by code, with its teams by code, their leaders and their member counts on `date`. */
export async function listWorkshops(q: Queryable, date: string): Promise<WorkshopItem[]> {
  const r = await q.query(
    `SELECT w.code, w.name,
            COALESCE((SELECT json_agg(json_build_object(
                        'code', t.code, 'name', t.name, 'workshopCode', t.workshop_code,
                        'leaders', (SELECT COALESCE(json_agg(json_build_object('phone', l.phone, 'name', ${nameOf('l.phone')}) ORDER BY l.i), '[]')
                                      FROM unnest(t.leaders) WITH ORDINALITY AS l(phone, i)),
                        'memberCount', (SELECT count(*)::int FROM team_memberships m
                                         WHERE m.team_code = t.code AND ${membershipCoversSql('m', '$1::date')}))
                        ORDER BY t.code)
                        FROM teams t WHERE t.workshop_code = w.code), '[]') AS teams
       FROM workshops w ORDER BY w.code`,
    [date],
  );
  return r.rows.map((x) => ({ code: x.code, name: x.name, teams: x.teams }));
}

export interface MemberItem {
  phone: string;
  name: string | null;
  validFrom: string;
  validTo: string | null;
  /** The member's coefficient (系数) during the membership, e.g. 1.2 (hundredths / 100). */
  coefficient: number;
}

/** The members of team `code` on `date`, by name then phone. Throws TEAM_NOT_FOUND. */
export async function teamMembers(q: Queryable, code: string, date: string): Promise<{ team: { code: string; name: string; workshopCode: string }; items: MemberItem[] }> {
  const r = await q.query(
    `SELECT (SELECT json_build_object('code', code, 'name', name, 'workshopCode', workshop_code) FROM teams WHERE code = $1) AS team,
            (SELECT json_agg(x ORDER BY x.name NULLS LAST, x.phone) FROM (
               SELECT m.phone, ${nameOf('m.phone')} AS name, m.valid_from::text AS valid_from, m.valid_to::text AS valid_to, m.coefficient
                 FROM team_memberships m
                WHERE m.team_code = $1 AND ${membershipCoversSql('m', '$2::date')}) x) AS items`,
    [code, date],
  );
  const row = r.rows[0];
  if (!row.team) throw domainError('TEAM_NOT_FOUND', { code });
  return {
    team: row.team,
    items: ((row.items ?? []) as any[]).map((x) => ({ phone: x.phone, name: x.name, validFrom: x.valid_from, validTo: x.valid_to, coefficient: x.coefficient / 100 })),
  };
}

export interface MembershipItem {
  teamCode: string;
  teamName: string | null;
  workshopCode: string | null;
  workshopName: string | null;
  validFrom: string;
  validTo: string | null;
  /** The coefficient (系数) during the membership, e.g. 1.2. */
  coefficient: number;
}

/**
 * The whole membership history of `phone`, newest first (names as they are now); each membership under the workshop
 * its team was in on the membership's last day (an open one: the team's workshop now), so a team moved later keeps
 * its past members under the old workshop (migrations/017).
 */
export async function membershipHistory(q: Queryable, phone: string): Promise<MembershipItem[]> {
  const r = await q.query(
    `SELECT m.team_code, t.name AS team_name, tw.workshop_code, w.name AS workshop_name, m.valid_from::text AS valid_from, m.valid_to::text AS valid_to, m.coefficient
       FROM team_memberships m LEFT JOIN teams t ON t.code = m.team_code
       LEFT JOIN LATERAL (SELECT x.workshop_code FROM team_workshops x
                           WHERE x.team_code = m.team_code AND x.valid_from <= COALESCE(m.valid_to, 'infinity'::date)
                           ORDER BY x.valid_from DESC LIMIT 1) tw ON true
       LEFT JOIN workshops w ON w.code = tw.workshop_code
      WHERE m.phone = $1 ORDER BY m.valid_from DESC`,
    [phone],
  );
  return r.rows.map((x) => ({
    teamCode: x.team_code,
    teamName: x.team_name,
    workshopCode: x.workshop_code,
    workshopName: x.workshop_name,
    validFrom: x.valid_from,
    validTo: x.valid_to,
    coefficient: x.coefficient / 100,
  }));
}

/** The name of workshop `code`, or null (no such workshop, or `code` null). */
export async function workshopNameOf(q: Queryable, code: string | null): Promise<string | null> {
  if (code === null) return null;
  return (await q.query(`SELECT name FROM workshops WHERE code = $1`, [code])).rows[0]?.name ?? null;
}

/** The organization as a personnel import resolves 车间 and 班组 cells against it. */
export interface OrganizationCatalog {
  workshops: { code: string; name: string }[];
  teams: { code: string; name: string; workshopCode: string; workshopName: string | null }[];
}

/** Every workshop and team (codes and names), by code. */
export async function organizationCatalog(q: Queryable): Promise<OrganizationCatalog> {
  const r = await q.query(
    `SELECT (SELECT COALESCE(json_agg(json_build_object('code', code, 'name', name) ORDER BY code), '[]') FROM workshops) AS workshops,
            (SELECT COALESCE(json_agg(json_build_object('code', t.code, 'name', t.name, 'workshopCode', t.workshop_code, 'workshopName', w.name) ORDER BY t.code), '[]')
               FROM teams t LEFT JOIN workshops w ON w.code = t.workshop_code) AS teams`,
  );
  return { workshops: r.rows[0].workshops, teams: r.rows[0].teams };
}

/** A worker's open membership (validTo null) with names. */
export interface OpenMembership {
  teamCode: string;
  teamName: string;
  workshopCode: string;
  workshopName: string | null;
  validFrom: string;
}

/** The open membership of each of `phones` that has one. */
export async function openMemberships(q: Queryable, phones: readonly string[]): Promise<Map<string, OpenMembership>> {
  if (phones.length === 0) return new Map();
  const r = await q.query(
    `SELECT m.phone, m.team_code, t.name AS team_name, t.workshop_code, w.name AS workshop_name, m.valid_from::text AS valid_from
       FROM team_memberships m JOIN teams t ON t.code = m.team_code LEFT JOIN workshops w ON w.code = t.workshop_code
      WHERE m.phone = ANY($1::text[]) AND m.valid_to IS NULL`,
    [[...new Set(phones)]],
  );
  return new Map(
    r.rows.map((x) => [x.phone, { teamCode: x.team_code, teamName: x.team_name, workshopCode: x.workshop_code, workshopName: x.workshop_name, validFrom: x.valid_from }]),
  );
}
