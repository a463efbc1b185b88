/**
 * Workshops, teams and shifts in the mini-program: the sentence under a report's break (where it came from) and the report's 班组 as a
 * reviewer reads it (miniprogram/core/placement.ts), as given-when-then tables.
 */
import { describe, expect, it } from 'vitest';
import { breakSourceText, teamText } from '../../miniprogram/core/placement.ts';

describe('breakSourceText: where the break came from', () => {
  it.each([
    // given the service's breakSource and shift name → the page says
    ['shift', '白班', '按班次「白班」的休息时段计算'],
    ['shift', '夜班', '按班次「夜班」的休息时段计算'],
    ['shift', null, '按班次的休息时段计算'],
    ['shift', '', '按班次的休息时段计算'],
    ['default', null, '默认休息时间'],
    ['default', '白班', '默认休息时间'],
    ['manager', '白班', '经理已修改'],
    ['manager', null, '经理已修改'],
    ['something-newer', '白班', ''],
    [undefined, undefined, ''],
    [null, null, ''],
  ] as const)('given %j and shift %j, says %j', (source, shiftName, text) => {
    expect(breakSourceText(source, shiftName)).toBe(text);
  });
});

describe('teamText: the report’s 班组', () => {
  it.each([
    // given team name, workshop name → the page says
    ['冲压一班', '冲压车间', '冲压一班（冲压车间）'],
    ['焊接一班', null, '焊接一班'],
    ['焊接一班', '', '焊接一班'],
    [null, '冲压车间', ''],
    [null, null, ''],
    [undefined, undefined, ''],
  ] as const)('given team %j in workshop %j, says %j', (team, workshop, text) => {
    expect(teamText(team, workshop)).toBe(text);
  });
});
