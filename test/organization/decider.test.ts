/**
 * The organization deciders in given-when-then form, no database: codes unique, a team's workshop
 * and leaders are facts, a member is a worker, a move ends the open membership the day before and starts the next,
 * history is never rewritten, at most one team at any date. Refusals are checked with their status and sentence.
 */
import { describe, expect, it } from 'vitest';
import { deviceDecider, memberDecider, teamDecider, workshopDecider, type MemberCommand, type TeamCommand } from '../../src/commands/organization/decider.ts';
import type { MemberEvent, TeamEvent } from '../../src/events/catalog.ts';
import { membershipOn } from '../../src/domain/membership.ts';
import { addDays } from '../../src/time.ts';
import { fold } from '../../src/commands/decider.ts';
import { scenario } from '../helpers/gwt.ts';

const AT = '2026-03-02T00:00:00.000Z';
const W = '13900000001';

describe('workshops: codes unique, rename', () => {
  const ws = scenario(workshopDecider);
  const defined = { type: 'WorkshopDefined' as const, data: { code: 'C1', name: '冲压车间', at: AT } };
  it('define on a new code → WorkshopDefined', () => {
    expect(ws.given([]).when({ type: 'DefineWorkshop', code: 'C1', name: '冲压车间', at: AT }).events).toEqual([defined]);
  });
  it('define on a taken code → 409 WORKSHOP_EXISTS naming the code', () => {
    const r = ws.given([defined]).when({ type: 'DefineWorkshop', code: 'C1', name: '别的', at: AT });
    expect(r.error).toMatchObject({ status: 409, code: 'WORKSHOP_EXISTS', details: { code: 'C1' } });
    expect(r.error.message).toContain('C1');
  });
  it('rename → WorkshopRenamed old → new; the same name → nothing; unknown code → 404', () => {
    expect(ws.given([defined]).when({ type: 'RenameWorkshop', code: 'C1', name: '冲压一车间', at: AT }).events).toEqual([
      { type: 'WorkshopRenamed', data: { code: 'C1', name: '冲压一车间', before: '冲压车间', at: AT } },
    ]);
    expect(ws.given([defined]).when({ type: 'RenameWorkshop', code: 'C1', name: '冲压车间', at: AT }).events).toEqual([]);
    expect(ws.given([]).when({ type: 'RenameWorkshop', code: 'C9', name: 'x', at: AT }).error).toMatchObject({ status: 404, code: 'WORKSHOP_NOT_FOUND' });
  });
});

describe('teams: the workshop exists, leaders are people in personnel', () => {
  const teams = scenario(teamDecider);
  const cmd = (over: Partial<TeamCommand> = {}): TeamCommand => ({
    type: 'DefineTeam',
    code: 'C1-A',
    name: '冲压一班',
    workshopCode: 'C1',
    leaders: ['13800000011'],
    at: AT,
    workshopExists: true,
    knownPeople: ['13800000011', '13800000012'],
    today: '2026-03-10',
    ...over,
  });
  const defined = { type: 'TeamDefined' as const, data: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: ['13800000011'], at: AT } };
  it.each([
    ['a new code, workshop exists, leader known', [], cmd(), { events: [defined] }],
    ['a taken code', [defined], cmd(), { status: 409, code: 'TEAM_EXISTS' }],
    ['a workshop that does not exist', [], cmd({ workshopExists: false, workshopCode: 'C9' }), { status: 404, code: 'WORKSHOP_NOT_FOUND', details: { code: 'C9' } }],
    ['a leader not in personnel', [], cmd({ leaders: ['13800000011', '13800000099'] }), { status: 422, code: 'LEADER_NOT_FOUND', details: { phone: '13800000099' } }],
    ['a change of an unknown team', [], cmd({ type: 'ChangeTeam' }), { status: 404, code: 'TEAM_NOT_FOUND' }],
  ] as const)('given %s', (_, given, command, expected) => {
    const r = teams.given([...given]).when(command);
    if ('events' in expected) expect(r.events).toEqual(expected.events);
    else expect(r.error).toMatchObject(expected);
  });
  it('change → TeamChanged with the team before; leaders once each; unchanged → nothing', () => {
    const r = teams.given([defined]).when(cmd({ type: 'ChangeTeam', leaders: ['13800000012', '13800000012', '13800000011'] }));
    expect(r.events).toEqual([
      {
        type: 'TeamChanged',
        data: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: ['13800000012', '13800000011'], before: { name: '冲压一班', workshopCode: 'C1', leaders: ['13800000011'] }, at: AT, workshopFrom: null },
      },
    ]);
    expect(teams.given([defined]).when(cmd({ type: 'ChangeTeam' })).events).toEqual([]);
  });

  it('a move to another workshop is dated: today by default, a day given; never before the last move nor after today', () => {
    const move = (over: Partial<TeamCommand>) => cmd({ type: 'ChangeTeam', workshopCode: 'C2', ...over });
    expect(teams.given([defined]).when(move({})).events![0]!.data).toMatchObject({ workshopCode: 'C2', before: { workshopCode: 'C1' }, workshopFrom: '2026-03-10' });
    expect(teams.given([defined]).when(move({ workshopFrom: '2026-03-01' })).events![0]!.data).toMatchObject({ workshopFrom: '2026-03-01' });
    expect(teams.given([defined]).when(move({ workshopFrom: '2026-03-11' })).error).toMatchObject({ status: 409, code: 'TEAM_MOVE_DATE', details: { earliest: null, latest: '2026-03-10' } });
    const moved = teams.given([defined]).when(move({ workshopFrom: '2026-03-05' })).events![0] as Extract<TeamEvent, { type: 'TeamChanged' }>;
    const back = (workshopFrom: string) => teams.given([defined, moved]).when(cmd({ type: 'ChangeTeam', workshopCode: 'C1', workshopFrom }));
    expect(back('2026-03-05').error).toMatchObject({ status: 409, code: 'TEAM_MOVE_DATE', details: { earliest: '2026-03-06', latest: '2026-03-10' } });
    expect(back('2026-03-06').events![0]!.data).toMatchObject({ workshopCode: 'C1', workshopFrom: '2026-03-06' });
    // An event recorded before moves were dated carries no date: the next move may be dated any day up to today.
    const { workshopFrom: _, ...undatedData } = moved.data;
    const undated: TeamEvent = { type: 'TeamChanged', data: undatedData };
    expect(teams.given([defined, undated]).when(cmd({ type: 'ChangeTeam', workshopCode: 'C1', workshopFrom: '2026-01-01' })).events).toHaveLength(1);
  });
});

describe('memberships: a worker, one team at any date, history never rewritten', () => {
  const members = scenario(memberDecider);
  const join = (teamCode: string, validFrom: string, over: Partial<Extract<MemberCommand, { type: 'StartMembership' }>> = {}): MemberCommand => ({
    type: 'StartMembership',
    phone: W,
    teamCode,
    validFrom,
    at: AT,
    teamExists: true,
    isWorker: true,
    ...over,
  });
  const end = (validTo: string): MemberCommand => ({ type: 'EndMembership', phone: W, validTo, at: AT });
  const started = (teamCode: string, validFrom: string): MemberEvent => ({ type: 'MembershipStarted', data: { phone: W, teamCode, validFrom, at: AT } });
  const ended = (teamCode: string, validFrom: string, validTo: string): MemberEvent => ({ type: 'MembershipEnded', data: { phone: W, teamCode, validFrom, validTo, at: AT } });

  it.each([
    // given, when, then (events or refusal)
    ['no history; join A from 03-01', [], join('A', '2026-03-01'), [started('A', '2026-03-01')]],
    ['in A since 03-01; move to B from 03-16 → A ends 03-15, B starts', [started('A', '2026-03-01')], join('B', '2026-03-16'), [ended('A', '2026-03-01', '2026-03-15'), started('B', '2026-03-16')]],
    ['in A since 03-01; move to B from 03-02 (A keeps one day)', [started('A', '2026-03-01')], join('B', '2026-03-02'), [ended('A', '2026-03-01', '2026-03-01'), started('B', '2026-03-02')]],
    ['in A since 03-01; move across a month end', [started('A', '2026-03-01')], join('B', '2026-04-01'), [ended('A', '2026-03-01', '2026-03-31'), started('B', '2026-04-01')]],
    ['in A since 03-01; join A again later → nothing', [started('A', '2026-03-01')], join('A', '2026-03-20'), []],
    ['A ended 03-15; join B from 03-16', [started('A', '2026-03-01'), ended('A', '2026-03-01', '2026-03-15')], join('B', '2026-03-16'), [started('B', '2026-03-16')]],
    ['in A since 03-01; end 03-31', [started('A', '2026-03-01')], end('2026-03-31'), [ended('A', '2026-03-01', '2026-03-31')]],
    ['in A since 03-01; end the same day (one-day membership)', [started('A', '2026-03-01')], end('2026-03-01'), [ended('A', '2026-03-01', '2026-03-01')]],
  ] as const)('given %s', (_, given, command, then) => {
    expect(members.given([...given]).when(command).events).toEqual(then);
  });

  it.each([
    ['a phone without the worker role', [], join('A', '2026-03-01', { isWorker: false }), { status: 422, code: 'NOT_A_WORKER', details: { phone: W } }],
    ['a team that does not exist', [], join('Z', '2026-03-01', { teamExists: false }), { status: 404, code: 'TEAM_NOT_FOUND', details: { code: 'Z' } }],
    ['a move dated before the open membership began', [started('A', '2026-03-10')], join('B', '2026-03-05'), { status: 409, code: 'MEMBERSHIP_DATE_TOO_EARLY', details: { earliest: '2026-03-11' } }],
    ['a move dated the open membership’s first day', [started('A', '2026-03-10')], join('B', '2026-03-10'), { status: 409, code: 'MEMBERSHIP_DATE_TOO_EARLY', details: { earliest: '2026-03-11' } }],
    ['the same team from an earlier date', [started('A', '2026-03-10')], join('A', '2026-03-01'), { status: 409, code: 'MEMBERSHIP_DATE_TOO_EARLY', details: { earliest: '2026-03-11' } }],
    ['a join overlapping an ended membership', [started('A', '2026-03-01'), ended('A', '2026-03-01', '2026-03-15')], join('B', '2026-03-15'), { status: 409, code: 'MEMBERSHIP_DATE_TOO_EARLY', details: { earliest: '2026-03-16' } }],
    ['an end with no open membership', [], end('2026-03-31'), { status: 409, code: 'NO_OPEN_MEMBERSHIP' }],
    ['an end before the open membership began', [started('A', '2026-03-10')], end('2026-03-09'), { status: 409, code: 'MEMBERSHIP_DATE_TOO_EARLY', details: { earliest: '2026-03-10' } }],
  ] as const)('refuses %s', (_, given, command, refusal) => {
    const r = members.given([...given]).when(command);
    expect(r.error).toMatchObject(refusal);
    expect(r.error.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('after any sequence of accepted commands, at most one membership covers each date and the past is unchanged', () => {
    const commands: MemberCommand[] = [
      join('A', '2026-03-01'),
      join('B', '2026-03-05'),
      join('B', '2026-03-06'),
      join('C', '2026-03-20'),
      end('2026-03-25'),
      join('A', '2026-03-26'),
      join('B', '2026-03-26'),
      join('B', '2026-04-02'),
    ];
    let events: MemberEvent[] = [];
    const snapshots: { date: string; team: string | undefined }[][] = [];
    for (const c of commands) {
      const r = members.given(events).when(c);
      if (r.events) events = [...events, ...r.events];
      const history = fold(memberDecider, events).history;
      const days = Array.from({ length: 40 }, (_, i) => addDays('2026-02-28', i));
      for (const d of days) expect(history.filter((m) => m.validFrom <= d && (m.validTo === null || m.validTo >= d)).length).toBeLessThanOrEqual(1);
      snapshots.push(days.map((d) => ({ date: d, team: membershipOn(history, d)?.teamCode })));
    }
    const history = fold(memberDecider, events).history;
    expect(history).toEqual([
      { teamCode: 'A', validFrom: '2026-03-01', validTo: '2026-03-04' },
      { teamCode: 'B', validFrom: '2026-03-05', validTo: '2026-03-19' },
      { teamCode: 'C', validFrom: '2026-03-20', validTo: '2026-03-25' },
      { teamCode: 'A', validFrom: '2026-03-26', validTo: '2026-04-01' },
      { teamCode: 'B', validFrom: '2026-04-02', validTo: null },
    ]);
    // The refused move to B on 03-26 (A's first day) changed nothing; days before each command's date never change.
    expect(snapshots[snapshots.length - 1].find((s) => s.date === '2026-03-10')?.team).toBe('B');
    expect(snapshots[1].find((s) => s.date === '2026-03-03')?.team).toBe('A');
  });
});

describe('device workshops', () => {
  const devices = scenario(deviceDecider);
  it('set → DeviceWorkshopSet with the one before; the same again → nothing; null clears; unknown workshop → 404', () => {
    const set = { type: 'DeviceWorkshopSet' as const, data: { deviceNo: '冲床 01', workshopCode: 'C1', before: null, at: AT } };
    expect(devices.given([]).when({ type: 'SetDeviceWorkshop', deviceNo: '冲床 01', workshopCode: 'C1', at: AT, workshopExists: true }).events).toEqual([set]);
    expect(devices.given([set]).when({ type: 'SetDeviceWorkshop', deviceNo: '冲床 01', workshopCode: 'C1', at: AT, workshopExists: true }).events).toEqual([]);
    expect(devices.given([set]).when({ type: 'SetDeviceWorkshop', deviceNo: '冲床 01', workshopCode: null, at: AT, workshopExists: true }).events).toEqual([
      { type: 'DeviceWorkshopSet', data: { deviceNo: '冲床 01', workshopCode: null, before: 'C1', at: AT } },
    ]);
    expect(devices.given([]).when({ type: 'SetDeviceWorkshop', deviceNo: '冲床 01', workshopCode: 'C9', at: AT, workshopExists: false }).error).toMatchObject({
      status: 404,
      code: 'WORKSHOP_NOT_FOUND',
    });
  });
});
