import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { daysBetween, isLocalDate, localDate, offsetMinutes, toZonedIso } from '../../src/time.ts';

describe('configuration (decisions.md "Runtime and configuration")', () => {
  it('defaults: embedded database, port 3000, 30-minute window, 16 h sessions, 60 min break, Asia/Shanghai', () => {
    const c = loadConfig({});
    expect(c.database).toEqual({ kind: 'pglite', dataDir: './data/pglite' });
    expect(c.port).toBe(3000);
    expect(c.reportWindowMs).toBe(30 * 60_000);
    expect(c.sessionMaxMs).toBe(16 * 3_600_000);
    expect(c.defaultBreakMinutes).toBe(60);
    expect(c.timeZone).toBe('Asia/Shanghai');
    expect(c.tokenTtl).toBe('7d');
    expect(c.jwtSecretGenerated).toBe(true);
    expect(c.platform).toBeUndefined();
  });

  it('reads PostgreSQL settings, decimal windows and templates', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://x@h/db', REPORT_WINDOW_MINUTES: '0.5', WX_TEMPLATE_REVIEW_RESULT: 'tpl1', WX_APPID: 'wx1', WX_SECRET: 's' });
    expect(c.database).toEqual({ kind: 'postgres', connectionString: 'postgres://x@h/db' });
    expect(c.reportWindowMs).toBe(30_000);
    expect(c.templates).toEqual({ REVIEW_RESULT: 'tpl1' });
    expect(c.platform).toEqual({ appId: 'wx1', secret: 's', apiBase: 'https://api.weixin.qq.com' });
    expect(loadConfig({ PGHOST: '/var/run/postgresql' }).database.kind).toBe('postgres');
  });

  it('refuses bad values with the variable named, and production without secrets', () => {
    expect(() => loadConfig({ REPORT_WINDOW_MINUTES: 'abc' })).toThrow(/REPORT_WINDOW_MINUTES/);
    expect(() => loadConfig({ APP_TIMEZONE: 'Mars/Base' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', WX_APPID: 'a', WX_SECRET: 'b' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'k' })).toThrow(/WX_APPID/);
  });
});

describe('time zone logic', () => {
  it('gives the Shanghai date of an instant whatever the process zone', () => {
    expect(localDate(new Date('2026-03-01T16:10:00Z'), 'Asia/Shanghai')).toBe('2026-03-02'); // 00:10 in Shanghai
    expect(localDate(new Date('2026-03-01T15:59:59Z'), 'Asia/Shanghai')).toBe('2026-03-01');
    expect(offsetMinutes(new Date('2026-03-01T00:00:00Z'), 'Asia/Shanghai')).toBe(480);
    expect(toZonedIso(new Date('2026-03-01T16:10:00.250Z'), 'Asia/Shanghai')).toBe('2026-03-02T00:10:00.250+08:00');
    expect(toZonedIso(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00.000-04:00');
  });

  it('follows a zone across a daylight-saving change, the same minute asked twice (offsets are cached by minute)', () => {
    // New York springs forward at 2026-03-08 07:00 UTC (02:00 EST → 03:00 EDT).
    for (let round = 0; round < 2; round++) {
      expect(toZonedIso(new Date('2026-03-08T06:59:59.999Z'), 'America/New_York')).toBe('2026-03-08T01:59:59.999-05:00');
      expect(toZonedIso(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('2026-03-08T03:00:00.000-04:00');
      expect(localDate(new Date('2026-03-08T04:59:59Z'), 'America/New_York')).toBe('2026-03-07');
      expect(localDate(new Date('2026-03-08T05:00:00Z'), 'America/New_York')).toBe('2026-03-08');
      expect(offsetMinutes(new Date('2026-03-08T06:30:00Z'), 'Asia/Kathmandu')).toBe(345);
    }
  });

  it('validates calendar dates and counts days', () => {
    expect(isLocalDate('2026-02-28')).toBe(true);
    expect(isLocalDate('2026-02-30')).toBe(false);
    expect(isLocalDate('2026-2-3')).toBe(false);
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
  });
});
