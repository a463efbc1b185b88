/**
 * The workers' calendars kept in the process (src/shifts/calendar-cache.ts): one per worker (the latest clock-in
 * date), asked by date or not, the least recently used worker forgotten beyond the bound.
 */
import { describe, expect, it } from 'vitest';
import { CalendarCache, type KeptCalendar } from '../../src/shifts/calendar-cache.ts';

const kept = (date: string, version = 1): KeptCalendar => ({ date, days: [{ date, teamCode: 'T1', shift: null }], heads: { 'member-13900000001': version } });

describe('CalendarCache', () => {
  it('keeps the latest calendar of a worker: by its date, or whatever date when none is asked', () => {
    const c = new CalendarCache();
    c.set('13900000001', kept('2026-03-02'));
    expect(c.get('13900000001', '2026-03-02')?.date).toBe('2026-03-02');
    expect(c.get('13900000001', '2026-03-03')).toBeUndefined();
    expect(c.get('13900000001')?.date).toBe('2026-03-02');
    c.set('13900000001', kept('2026-03-03', 2));
    expect(c.get('13900000001', '2026-03-02')).toBeUndefined();
    expect(c.get('13900000001', '2026-03-03')?.heads).toEqual({ 'member-13900000001': 2 });
    c.delete('13900000001');
    expect(c.get('13900000001')).toBeUndefined();
    expect(c.get('13900000002')).toBeUndefined();
  });

  it('beyond its bound forgets the worker asked least recently', () => {
    // Two generations of max / 2 = 2 entries each (src/shared/lru.ts).
    const c = new CalendarCache(4);
    c.set('13900000001', kept('2026-03-02'));
    c.set('13900000002', kept('2026-03-02'));
    expect(c.get('13900000001')).toBeDefined(); // 02 is now the least recently used
    c.set('13900000003', kept('2026-03-02'));
    expect(['13900000001', '13900000002', '13900000003'].map((p) => c.get(p) !== undefined)).toEqual([true, false, true]);
  });
});
