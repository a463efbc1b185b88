/**
 * The scope matrix of writes, as test/review/scope-matrix.test.ts is for reads: every route that changes the
 * organization, shifts, a team's calendar, a device's workshop, a membership or a scope × {unscoped admin, admin
 * scoped to workshop W1, admin scoped to team T2, manager scoped to workshop W2} × the place it touches (W1/T1 or
 * W2/T2) → the exact status and code. The rule (domain/scope.ts `outsideScopeSql`): a narrowly scoped person
 * changes only workshops of their workshops, teams of their teams or workshops, workers whose open team is inside,
 * devices in no workshop or one of theirs; a new workshop, a shift and a scope are the whole factory's (403
 * WHOLE_FACTORY_ONLY); outside: 404 NOT_IN_SCOPE, as a report outside the scope, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct } from '../clock/helpers.ts';
import { upload, workbook } from '../products/support.ts';
import { saveWorkshop } from '../../src/commands/organization/handlers.ts';
import type { Repository, StreamQuery } from '../../src/commands/repository.ts';
import type { FactQuery } from '../../src/commands/facts.ts';
import type { Queryable } from '../../src/db/transaction.ts';

let app: TestApp;
let boss: string;

type Actor = 'admin*' | 'admin W1' | 'admin T2' | 'manager W2';
type Place = 'W1/T1' | 'W2/T2';
const ACTORS: Actor[] = ['admin*', 'admin W1', 'admin T2', 'manager W2'];
const PLACES: Place[] = ['W1/T1', 'W2/T2'];
const PEOPLE: Record<Actor, { phone: string; role: Role; scope?: { workshops: string[]; teams: string[] } }> = {
  'admin*': { phone: '13900000001', role: 'admin' },
  'admin W1': { phone: '13900000002', role: 'admin', scope: { workshops: ['W1'], teams: [] } },
  'admin T2': { phone: '13900000003', role: 'admin', scope: { workshops: [], teams: ['T2'] } },
  'manager W2': { phone: '13900000004', role: 'manager', scope: { workshops: ['W2'], teams: [] } },
};
const WORKSHOP: Record<Place, string> = { 'W1/T1': 'W1', 'W2/T2': 'W2' };
const TEAM: Record<Place, string> = { 'W1/T1': 'T1', 'W2/T2': 'T2' };
const OTHER: Record<Place, Place> = { 'W1/T1': 'W2/T2', 'W2/T2': 'W1/T1' };
const LEADER = '13800000099';
/** Whether the actor's scope holds the place's workshop (a team scope holds no workshop). */
const HOLDS_WORKSHOP: Record<Actor, Record<Place, boolean>> = {
  'admin*': { 'W1/T1': true, 'W2/T2': true },
  'admin W1': { 'W1/T1': true, 'W2/T2': false },
  'admin T2': { 'W1/T1': false, 'W2/T2': false },
  'manager W2': { 'W1/T1': false, 'W2/T2': true },
};
/** Whether the actor's scope holds the place's team (its own, or through its workshop). */
const HOLDS_TEAM: Record<Actor, Record<Place, boolean>> = {
  'admin*': { 'W1/T1': true, 'W2/T2': true },
  'admin W1': { 'W1/T1': true, 'W2/T2': false },
  'admin T2': { 'W1/T1': false, 'W2/T2': true },
  'manager W2': { 'W1/T1': false, 'W2/T2': true },
};
const tokens = {} as Record<Actor, string>;
let shiftId: string;
let seq = 0;
/** A fresh code or phone per cell, so that every cell starts from the same state. */
const fresh = (prefix: string) => `${prefix}${String(++seq).padStart(3, '0')}`;

async function ok(r: Promise<{ status: number; body: any }>, status = 200) {
  const a = await r;
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  return a.body;
}

beforeAll(async () => {
  app = await startTestApp();
  boss = await app.login('13900000009', 'manager', '厂长');
  await app.login(LEADER, 'worker', '班长');
  for (const a of ACTORS) tokens[a] = await app.login(PEOPLE[a].phone, PEOPLE[a].role, a);
  for (const p of PLACES) {
    await ok(app.request('POST', '/api/workshops', { token: boss, body: { code: WORKSHOP[p], name: `车间${WORKSHOP[p]}` } }), 201);
    await ok(app.request('POST', '/api/teams', { token: boss, body: { code: TEAM[p], name: `班组${TEAM[p]}`, workshopCode: WORKSHOP[p], leaders: [LEADER] } }), 201);
  }
  shiftId = (await ok(app.request('POST', '/api/shifts', { token: boss, body: { name: '白班', start: '08:00', end: '17:00', breaks: [] } }), 201)).shiftId;
  for (const a of ACTORS) {
    const scope = PEOPLE[a].scope;
    if (scope) await ok(app.request('PUT', `/api/people/${PEOPLE[a].phone}/scope`, { token: boss, body: { role: PEOPLE[a].role, ...scope } }));
  }
});
afterAll(() => app?.close());

/** A worker in personnel, in the place's team when `place` is given (by the whole factory's manager). */
async function worker(place?: Place): Promise<string> {
  const phone = `137${String(++seq).padStart(8, '0')}`;
  await app.login(phone, 'worker', `员工${seq}`);
  if (place) await ok(app.request('POST', '/api/memberships', { token: boss, body: { phone, teamCode: TEAM[place], validFrom: '2026-02-01' } }));
  return phone;
}

/** A device used by a product, in the place's workshop when `place` is given. */
async function device(place?: Place): Promise<string> {
  const deviceNo = fresh('设备');
  await addProduct(app, deviceNo);
  if (place) await ok(app.request('PUT', `/api/devices/${encodeURIComponent(deviceNo)}/workshop`, { token: boss, body: { workshopCode: WORKSHOP[place] } }));
  return deviceNo;
}

const outcome = (r: { status: number; body: any }) => `${r.status}${r.body?.error ? ` ${r.body.error.code}` : ''}`;
const notInScope = (kind: string, code: string) => ({ status: 404, body: { error: { code: 'NOT_IN_SCOPE', details: { kind, code } } } });

/** One write per cell: `run` makes it for the actor at the place and gives the outcome; `expect` the one expected. */
interface Write {
  name: string;
  run(a: Actor, p: Place): Promise<{ status: number; body: any }>;
  expected(a: Actor, p: Place): string;
}

const allowed = (ok: boolean, status: number, refusal: string) => (ok ? String(status) : refusal);

const WRITES: Write[] = [
  {
    name: 'PUT /api/workshops/:code (rename)',
    run: (a, p) => app.request('PUT', `/api/workshops/${WORKSHOP[p]}`, { token: tokens[a], body: { name: fresh('车间名') } }),
    expected: (a, p) => allowed(HOLDS_WORKSHOP[a][p], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'POST /api/workshops (a new workshop: the whole factory only)',
    run: (a) => app.request('POST', '/api/workshops', { token: tokens[a], body: { code: fresh('W'), name: '新车间' } }),
    expected: (a) => allowed(a === 'admin*', 201, '403 WHOLE_FACTORY_ONLY'),
  },
  {
    name: 'POST /api/teams (a new team in the place\'s workshop)',
    run: (a, p) => app.request('POST', '/api/teams', { token: tokens[a], body: { code: fresh('N'), name: '新班组', workshopCode: WORKSHOP[p], leaders: [LEADER] } }),
    expected: (a, p) => allowed(HOLDS_WORKSHOP[a][p], 201, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'PUT /api/teams/:code (renamed, same workshop)',
    run: (a, p) => app.request('PUT', `/api/teams/${TEAM[p]}`, { token: tokens[a], body: { name: fresh('班组名'), workshopCode: WORKSHOP[p], leaders: [LEADER] } }),
    expected: (a, p) => allowed(HOLDS_TEAM[a][p], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'PUT /api/teams/:code (moved to the other workshop; moved back by the factory after)',
    async run(a, p) {
      const code = fresh('M');
      await ok(app.request('POST', '/api/teams', { token: boss, body: { code, name: '移动班组', workshopCode: WORKSHOP[p], leaders: [LEADER] } }), 201);
      return app.request('PUT', `/api/teams/${code}`, { token: tokens[a], body: { name: '移动班组', workshopCode: WORKSHOP[OTHER[p]], leaders: [LEADER] } });
    },
    // The team is inside only through its workshop (a new code in no team scope), and the target must be inside too.
    expected: (a, p) => allowed(HOLDS_WORKSHOP[a][p] && HOLDS_WORKSHOP[a][OTHER[p]], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'POST /api/memberships (a worker in no team joins the place\'s team)',
    run: async (a, p) => app.request('POST', '/api/memberships', { token: tokens[a], body: { phone: await worker(), teamCode: TEAM[p] } }),
    expected: (a, p) => allowed(HOLDS_TEAM[a][p], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'POST /api/memberships (a worker of the place\'s team moves to the other team)',
    run: async (a, p) => app.request('POST', '/api/memberships', { token: tokens[a], body: { phone: await worker(p), teamCode: TEAM[OTHER[p]] } }),
    expected: (a, p) => allowed(HOLDS_TEAM[a][p] && HOLDS_TEAM[a][OTHER[p]], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'POST /api/memberships/end (a worker of the place\'s team leaves it)',
    run: async (a, p) => app.request('POST', '/api/memberships/end', { token: tokens[a], body: { phone: await worker(p) } }),
    expected: (a, p) => allowed(HOLDS_TEAM[a][p], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'PUT /api/devices/:deviceNo/workshop (a device in no workshop put in the place\'s)',
    run: async (a, p) => app.request('PUT', `/api/devices/${encodeURIComponent(await device())}/workshop`, { token: tokens[a], body: { workshopCode: WORKSHOP[p] } }),
    expected: (a, p) => allowed(HOLDS_WORKSHOP[a][p], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'PUT /api/devices/:deviceNo/workshop (a device of the place\'s workshop taken out of every workshop)',
    run: async (a, p) => app.request('PUT', `/api/devices/${encodeURIComponent(await device(p))}/workshop`, { token: tokens[a], body: { workshopCode: null } }),
    expected: (a, p) => allowed(HOLDS_WORKSHOP[a][p], 200, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'POST /api/shifts (a new shift: the whole factory only)',
    run: (a) => app.request('POST', '/api/shifts', { token: tokens[a], body: { name: fresh('班'), start: '08:00', end: '12:00', breaks: [] } }),
    expected: (a) => allowed(a === 'admin*', 201, '403 WHOLE_FACTORY_ONLY'),
  },
  {
    name: 'PUT /api/shifts/:shiftId (a shift changed: the whole factory only)',
    run: (a) => app.request('PUT', `/api/shifts/${shiftId}`, { token: tokens[a], body: { name: fresh('白班'), start: '08:00', end: '17:00', breaks: [] } }),
    expected: (a) => allowed(a === 'admin*', 200, '403 WHOLE_FACTORY_ONLY'),
  },
  {
    name: 'POST /api/teams/:code/shift-assignments',
    run: (a, p) => app.request('POST', `/api/teams/${TEAM[p]}/shift-assignments`, { token: tokens[a], body: { validFrom: `2026-04-${String((seq++ % 28) + 1).padStart(2, '0')}`, rotation: [shiftId] } }),
    expected: (a, p) => allowed(HOLDS_TEAM[a][p], 201, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'PUT /api/teams/:code/shift-overrides/:date',
    run: (a, p) => app.request('PUT', `/api/teams/${TEAM[p]}/shift-overrides/2026-05-${String((seq++ % 28) + 1).padStart(2, '0')}`, { token: tokens[a], body: { shiftId: null } }),
    expected: (a, p) => allowed(HOLDS_TEAM[a][p], 204, '404 NOT_IN_SCOPE'),
  },
  {
    name: 'DELETE /api/teams/:code/shift-overrides/:date',
    async run(a, p) {
      const date = `2026-06-${String((seq++ % 28) + 1).padStart(2, '0')}`;
      await ok(app.request('PUT', `/api/teams/${TEAM[p]}/shift-overrides/${date}`, { token: boss, body: { shiftId: null } }), 204);
      return app.request('DELETE', `/api/teams/${TEAM[p]}/shift-overrides/${date}`, { token: tokens[a] });
    },
    expected: (a, p) => allowed(HOLDS_TEAM[a][p], 204, '404 NOT_IN_SCOPE'),
  },
];

describe('scope matrix of writes: every write route × scoped people × inside / outside', () => {
  it.each(WRITES.map((w) => [w.name, w] as const))('%s', async (_, w) => {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const a of ACTORS) {
      for (const p of PLACES) {
        seen.push(`${a} × ${p}: ${outcome(await w.run(a, p))}`);
        expected.push(`${a} × ${p}: ${w.expected(a, p)}`);
      }
    }
    expect(seen).toEqual(expected);
  });
});

describe('what the console learns of the scope', () => {
  it('GET /api/auth/me gives the current role\'s scope (codes), empty for the whole factory', async () => {
    const scopes: Record<string, unknown> = {};
    for (const a of ACTORS) scopes[a] = (await app.request('GET', '/api/auth/me', { token: tokens[a] })).body.scope;
    expect(scopes).toEqual({
      'admin*': { workshops: [], teams: [] },
      'admin W1': { workshops: ['W1'], teams: [] },
      'admin T2': { workshops: [], teams: ['T2'] },
      'manager W2': { workshops: ['W2'], teams: [] },
    });
  });
});

describe('what a refusal says and leaves', () => {
  it('a workshop reviewer renaming another workshop: 404 with the Chinese sentence, and nothing written', async () => {
    const before = (await app.service.ctx.db.pool.query(`SELECT name FROM workshops WHERE code = 'W2'`)).rows;
    const r = await app.request('PUT', '/api/workshops/W2', { token: tokens['admin W1'], body: { name: '改名' } });
    expect(r).toMatchObject(notInScope('workshop', 'W2'));
    expect(r.body.error.message).toBe('没有找到车间「W2」，或它不在您的管理范围内；如需修改，请联系负责全厂的管理员或经理');
    expect((await app.service.ctx.db.pool.query(`SELECT name FROM workshops WHERE code = 'W2'`)).rows).toEqual(before);
    const events = await app.service.ctx.store.readStream(app.service.ctx.db.pool, 'workshop-W2', 1);
    expect(events.some((e) => (e.data as any).name === '改名')).toBe(false);
  });

  it('a code that names no team is refused as one outside the scope (existence not leaked)', async () => {
    expect(await app.request('POST', '/api/teams/NOPE/shift-assignments', { token: tokens['admin W1'], body: { validFrom: '2026-04-01', rotation: [shiftId] } })).toMatchObject(
      notInScope('team', 'NOPE'),
    );
    // The whole factory still hears that the team does not exist.
    expect((await app.request('POST', '/api/teams/NOPE/shift-assignments', { token: tokens['admin*'], body: { validFrom: '2026-04-01', rotation: [shiftId] } })).body.error.code).toBe(
      'TEAM_NOT_FOUND',
    );
  });

  it('moving a worker out of a team outside the scope names the worker', async () => {
    const phone = await worker('W2/T2');
    const r = await app.request('POST', '/api/memberships', { token: tokens['admin W1'], body: { phone, teamCode: 'T1' } });
    expect(r).toMatchObject(notInScope('member', phone));
    expect(r.body.error.message).toBe(`员工 ${phone} 目前所在的班组不在您的管理范围内，不能调动或移出；请联系负责全厂的管理员或经理`);
  });

  it('a scoped manager may not give scopes; the sentence says who may', async () => {
    const r = await app.request('PUT', `/api/people/${PEOPLE['admin W1'].phone}/scope`, { token: tokens['manager W2'], body: { role: 'admin', workshops: ['W2'], teams: [] } });
    expect(r).toMatchObject({ status: 403, body: { error: { code: 'WHOLE_FACTORY_ONLY' } } });
    expect(r.body.error.message).toBe('您的管理范围只是部分车间或班组，设置审核范围须由负责全厂的管理员或经理操作');
  });

  it('a scope narrowed between the decision and the append writes nothing: the append is refused, the retry reads the new scope → NOT_IN_SCOPE', async () => {
    const ctx = app.service.ctx;
    const phone = '13900000006';
    await app.login(phone, 'admin', '并发管理员');
    await ok(app.request('PUT', `/api/people/${phone}/scope`, { token: boss, body: { role: 'admin', workshops: ['W1'], teams: [] } }));
    let loads = 0;
    const repository = ctx.commands.repository;
    const racing: Repository = {
      async load<S>(q: Queryable, stream: StreamQuery<S>, query: FactQuery, fresh: boolean) {
        const loaded = await repository.load(q, stream, query, fresh);
        // Right after the first load (the decision is made on it), the scope is narrowed to workshop W2.
        if (++loads === 1) await ctx.db.pool.query(`UPDATE scopes SET workshops = '{W2}' WHERE phone = $1 AND role = 'admin'`, [phone]);
        return loaded;
      },
      remember: repository.remember.bind(repository),
      forget: repository.forget.bind(repository),
    };
    const before = await ctx.store.readStream(ctx.db.pool, 'workshop-W1', 1);
    await expect(saveWorkshop({ ...ctx.commands, repository: racing }, { phone, role: 'admin' }, { code: 'W1', name: '竞争改名', create: false })).rejects.toMatchObject({
      code: 'NOT_IN_SCOPE',
      details: { kind: 'workshop', code: 'W1' },
    });
    expect(loads).toBe(2); // the first decision's append was refused by its guard; the second load saw the new scope
    expect(await ctx.store.readStream(ctx.db.pool, 'workshop-W1', 1)).toHaveLength(before.length);
  });

  it('a personnel list that puts a worker in a team outside the importer\'s scope imports nothing', async () => {
    const phone = '13600000001';
    const pre = await upload(app, '/api/people/import', tokens['admin W1'], workbook([
      ['手机号', '姓名', '角色', '班组'],
      ['13600000002', '新人甲', '员工', 'T1'],
      [phone, '新人乙', '员工', 'T2'],
    ]));
    expect(pre.status, JSON.stringify(pre.body)).toBe(200);
    const r = await app.request('POST', `/api/people/import/${pre.body.importId}/confirm`, { token: tokens['admin W1'] });
    expect(r).toMatchObject(notInScope('team', 'T2'));
    const people = await app.service.ctx.db.pool.query(`SELECT phone FROM personnel WHERE phone IN ('13600000001', '13600000002')`);
    expect(people.rows).toEqual([]);
  });
});
