/**
 * The catalog's upcasters (src/events/catalog.ts): payloads stored by earlier versions read as the current shape.
 * ReportSubmitted v1 (before flags) and v2 (before placement and break source) both read as
 * version 3: no flags, no team, break from DEFAULT_BREAK_MINUTES; the result passes the current schema.
 */
import { describe, expect, it } from 'vitest';
import { domainRegistry } from '../../src/events/registry.ts';
import { submitted } from '../review/fixtures.ts';

const { flags: _flags, workshopCode: _w, teamCode: _t, breakSource: _b, shift: _s, ...v1 } = submitted({ reportId: '6f1c1a36-9f0e-4c7e-9a54-3f9f2b8d2a11' });

describe('ReportSubmitted upcasters', () => {
  it('reads a version-1 payload as version 3 with no flags, no team and the default break', () => {
    const up = domainRegistry.upcast('ReportSubmitted', 1, v1) as Record<string, unknown>;
    expect(up).toMatchObject({ flags: [], workshopCode: null, teamCode: null, breakSource: 'default', shift: null, breakMinutes: 60 });
    expect(domainRegistry.validate('ReportSubmitted', up).version).toBe(3);
  });

  it('reads a version-2 payload as version 3 and keeps its flags', () => {
    const v2 = { ...v1, flags: [{ code: 'CYCLE_TOO_FAST' }] };
    const up = domainRegistry.upcast('ReportSubmitted', 2, v2) as Record<string, unknown>;
    expect(up.flags).toEqual([{ code: 'CYCLE_TOO_FAST' }]);
    expect(up).toMatchObject({ workshopCode: null, teamCode: null, breakSource: 'default', shift: null });
  });

  it('leaves a version-3 payload as it is', () => {
    const v3 = submitted({ workshopCode: 'W1', teamCode: 'T1' });
    expect(domainRegistry.upcast('ReportSubmitted', 3, v3)).toEqual(v3);
  });
});
