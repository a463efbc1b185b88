import { describe, expect, it } from 'vitest';
import { cutTemplateValue, keyType, templateValueProblem } from '../../src/platform/message-values.ts';

const TZ = 'Asia/Shanghai';
const cut = (k: string, v: string) => cutTemplateValue(k, v, TZ);

describe('subscription message values cut to the platform limits per key type', () => {
  it('derives the type from the key name', () => {
    expect(keyType('thing12')).toBe('thing');
    expect(keyType('character_string19')).toBe('character_string');
    expect(keyType('phrase3')).toBe('phrase');
  });

  it('thing: at most 20 characters, counted as characters not bytes', () => {
    expect(cut('thing1', '冲压件A-100 已审核通过')).toBe('冲压件A-100 已审核通过');
    const long = '这是一个非常非常非常非常长的驳回原因需要截断才行';
    const v = cut('thing1', long);
    expect(Array.from(v)).toHaveLength(20);
    expect(v.endsWith('…')).toBe(true);
    expect(v.startsWith(long.slice(0, 19))).toBe(true);
  });

  it('character_string: only digits, letters and symbols, at most 32', () => {
    expect(cut('character_string2', 'R-2026/03/02 报告#0001')).toBe('R-2026/03/02#0001');
    expect(cut('character_string2', 'x'.repeat(40))).toHaveLength(32);
  });

  it('phrase: at most 5 Chinese characters, nothing else', () => {
    expect(cut('phrase3', '已驳回 rejected')).toBe('已驳回');
    expect(cut('phrase3', '审核已经通过了')).toBe('审核已经通');
  });

  it('name: 10 characters when Chinese, 20 when letters', () => {
    expect(cut('name4', '欧阳娜娜娜娜娜娜娜娜娜娜')).toBe('欧阳娜娜娜娜娜娜娜娜');
    expect(cut('name4', 'Alexander Maximilian Smith')).toBe('Alexander Maximilian');
  });

  it('number, letter, symbol', () => {
    expect(cut('number5', '合计 1,234.5 件')).toBe('1234.5');
    expect(cut('number5', '9'.repeat(40))).toHaveLength(32);
    expect(cut('letter6', 'abc 123 DEF')).toBe('abcDEF');
    expect(cut('symbol7', '+-*/%&^')).toBe('+-*/%');
  });

  it('time and date: instants in the factory time zone in the documented format', () => {
    expect(cut('time8', '2026-03-02T00:30:00Z')).toBe('2026年3月2日 08:30');
    expect(cut('date9', '2026-03-01T23:30:00Z')).toBe('2026年3月2日');
    expect(cut('date9', '2026-03-02')).toBe('2026年3月2日');
    expect(cut('time8', '15:01')).toBe('15:01');
  });

  it('every cut value passes the check the simulator applies (as the platform would)', () => {
    const inputs: [string, string][] = [
      ['thing1', '一二三四五六七八九十一二三四五六七八九十一二三'],
      ['character_string2', '报告编号 ABC-123 第二版'.repeat(3)],
      ['phrase3', '审核未通过请重新提交'],
      ['name4', '张三丰张三丰张三丰张三丰'],
      ['number5', '数量：88.5'],
      ['letter6', 'ab12cd'],
      ['symbol7', '---!!!'],
    ];
    for (const [k, v] of inputs) {
      expect(templateValueProblem(k, v), `${k} raw`).not.toBeNull();
      expect(templateValueProblem(k, cut(k, v)), `${k} cut`).toBeNull();
    }
  });
});
