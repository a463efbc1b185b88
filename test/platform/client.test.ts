import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { WxPlatformClient } from '../../src/platform/client.ts';
import { PlatformSimulator } from '../../src/platform/simulator.ts';
import { PlatformError } from '../../src/platform/types.ts';
import { decodePng } from './png.ts';

const clock = new ManualClock('2026-03-02T08:00:00+08:00');
const sim = new PlatformSimulator({ clock, secret: 'sim-secret-value-0001' });
const logLines: string[] = [];
const log = pino({ level: 'debug' }, new Writable({ write: (c, _e, cb) => (logLines.push(String(c)), cb()) }));
let client: WxPlatformClient;
let n = 0;
const fresh = () => `sim:user-${++n}`;

const newClient = () =>
  new WxPlatformClient({ appId: sim.appId, secret: sim.secret, apiBase: sim.url, clock, log, timeZone: 'Asia/Shanghai', retryDelaysMs: [1, 1] });

const errcodeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof PlatformError) return err.errcode;
    throw err;
  }
  return 0;
};

beforeAll(async () => {
  await sim.start();
});
afterAll(() => sim.close());
beforeEach(() => {
  client = newClient();
  sim.calls.length = 0;
  sim.clearFailures();
});

describe('platform client against the simulator: access token', () => {
  it('fetches the stable token once and reuses it across calls', async () => {
    await client.getPhoneNumber('sim:13800000001');
    await client.getPhoneNumber('sim:13800000002');
    await client.getUnlimitedQrCode({ scene: 'a=1', page: 'pages/clock/clock' });
    expect(sim.callCount('stable_token')).toBe(1);
  });

  it('fetches a new token when the cached one reaches its refresh margin on the clock', async () => {
    await client.getPhoneNumber('sim:13800000003');
    clock.advance(6_899_000);
    await client.getPhoneNumber('sim:13800000004');
    expect(sim.callCount('stable_token')).toBe(1);
    clock.advance(2_000);
    await client.getPhoneNumber('sim:13800000005');
    expect(sim.callCount('stable_token')).toBe(2);
  });

  it('a short expires_in (345 s) is cached for a positive time and refreshed before it runs out', async () => {
    sim.tokenExpiresIn = 345;
    try {
      sim.expireTokens();
      await client.getPhoneNumber('sim:13800000006');
      clock.advance(170_000);
      await client.getPhoneNumber('sim:13800000007');
      expect(sim.callCount('stable_token')).toBe(1);
      clock.advance(10_000);
      await client.getPhoneNumber('sim:13800000008');
      expect(sim.callCount('stable_token')).toBe(2);
    } finally {
      sim.tokenExpiresIn = 7200;
    }
  });

  it('a token the platform says expired (42001) is dropped and the call retried once', async () => {
    await client.getPhoneNumber('sim:13800000009');
    sim.expireTokens();
    const phone = await client.getPhoneNumber('sim:13800000010');
    expect(phone.purePhoneNumber).toBe('13800000010');
    expect(sim.callCount('stable_token')).toBe(2);
    expect(sim.callCount('getuserphonenumber')).toBe(3);
  });

  it('40001 once: retried once with a fresh token; 40001 twice: the error is thrown', async () => {
    sim.failNext('getuserphonenumber', 40001);
    expect((await client.getPhoneNumber('sim:13800000011')).purePhoneNumber).toBe('13800000011');
    expect(sim.callCount('getuserphonenumber')).toBe(2);
    sim.calls.length = 0;
    sim.failNext('subscribe_send', 40001, { times: 2 });
    const code = await errcodeOf(client.sendSubscribeMessage({ toUser: sim.openidFor('x'), templateId: 't', data: { thing1: 'a' } }));
    expect(code).toBe(40001);
    expect(sim.callCount('subscribe_send')).toBe(2);
  });

  it('one refresh in flight: concurrent calls on an empty cache fetch the token once', async () => {
    await Promise.all([1, 2, 3, 4].map((i) => client.getPhoneNumber(`sim:1390000000${i}`)));
    expect(sim.callCount('stable_token')).toBe(1);
  });
});

describe('platform client: retries and errors', () => {
  it('-1 (busy) is retried with backoff until it succeeds', async () => {
    sim.failNext('jscode2session', -1, { times: 2 });
    const s = await client.code2Session('sim:busy-user');
    expect(s.openid).toBe(sim.openidFor('busy-user'));
    expect(sim.callCount('jscode2session')).toBe(3);
  });

  it('-1 beyond the retries is thrown with errcode, errmsg and rid', async () => {
    sim.failNext('jscode2session', -1, { times: 5 });
    try {
      await client.code2Session(fresh());
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PlatformError);
      expect((err as PlatformError).errcode).toBe(-1);
      expect((err as PlatformError).rid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}$/);
    }
    expect(sim.callCount('jscode2session')).toBe(3);
  });

  it('rate limit (45011) and blocked user (40226) are not retried', async () => {
    sim.failNext('jscode2session', 45011);
    expect(await errcodeOf(client.code2Session(fresh()))).toBe(45011);
    sim.failNext('jscode2session', 40226);
    expect(await errcodeOf(client.code2Session(fresh()))).toBe(40226);
    expect(sim.callCount('jscode2session')).toBe(2);
  });

  it('login codes are single-use (40163) and unknown codes invalid (40029)', async () => {
    const code = fresh();
    const first = await client.code2Session(code);
    expect(first.sessionKey).toBe(sim.sessionKeyFor(first.openid));
    expect(await errcodeOf(client.code2Session(code))).toBe(40163);
    expect(await errcodeOf(client.code2Session('not-a-sim-code'))).toBe(40029);
  });

  it('phone credentials are single-use; countryCode given as a number comes back as a string', async () => {
    sim.countryCodeAsNumber = true;
    try {
      const p = await client.getPhoneNumber('sim:13700000001');
      expect(p).toEqual({ phoneNumber: '13700000001', purePhoneNumber: '13700000001', countryCode: '86' });
    } finally {
      sim.countryCodeAsNumber = false;
    }
    expect(await errcodeOf(client.getPhoneNumber('sim:13700000001'))).toBe(40029);
    expect(await client.getPhoneNumber('sim:852-61234567')).toEqual({ phoneNumber: '+85261234567', purePhoneNumber: '61234567', countryCode: '852' });
  });

  it('legacy phone data from the simulator decrypts with the session key of the login', async () => {
    const code = fresh();
    const data = sim.legacyPhoneData(code, '13600000001');
    const s = await client.code2Session(code);
    expect(client.decryptPhoneData(s.sessionKey, data.encryptedData, data.iv).purePhoneNumber).toBe('13600000001');
  });
});

describe('platform client: mini-program codes', () => {
  it('answers real PNG bytes for a valid scene', async () => {
    const img = await client.getUnlimitedQrCode({ scene: 'deviceNo=A-01', page: 'pages/clock/clock', width: 300 });
    const png = decodePng(img);
    expect([png.width, png.height]).toEqual([300, 300]);
    expect(png.raw.length).toBe(301 * 300);
    expect(sim.generatedCodes.at(-1)).toMatchObject({ scene: 'deviceNo=A-01', page: 'pages/clock/clock', checkPath: true, envVersion: 'release' });
  });

  it('a JSON error with HTTP 200 is an error, never image bytes', async () => {
    sim.failNext('getwxacodeunlimit', 45009);
    expect(await errcodeOf(client.getUnlimitedQrCode({ scene: 'a=1', page: 'pages/clock/clock' }))).toBe(45009);
    sim.failNext('getwxacodeunlimit', 40097, { contentType: 'image/jpeg' });
    expect(await errcodeOf(client.getUnlimitedQrCode({ scene: 'a=1', page: 'pages/clock/clock' }))).toBe(-2);
  });

  it('the simulator applies the platform rules on scene and page', async () => {
    expect(await errcodeOf(client.getUnlimitedQrCode({ scene: 'deviceNo=%E5%86%B2', page: 'pages/clock/clock' }))).toBe(40169);
    expect(await errcodeOf(client.getUnlimitedQrCode({ scene: 'x'.repeat(33), page: 'pages/clock/clock' }))).toBe(40169);
    expect(await errcodeOf(client.getUnlimitedQrCode({ scene: 'a=1', page: 'pages/nope/nope' }))).toBe(41030);
    const img = await client.getUnlimitedQrCode({ scene: 'a=1', page: 'pages/nope/nope', checkPath: false, envVersion: 'develop' });
    expect(decodePng(img).width).toBe(430);
  });
});

describe('platform client: subscription messages', () => {
  it('cuts values so the platform accepts them, and 43101 is thrown for the caller to record', async () => {
    const to = sim.openidFor('msg-user');
    sim.grant(to, 'tpl-review'); // the user accepted the template once (wx.requestSubscribeMessage)
    await client.sendSubscribeMessage({
      toUser: to,
      templateId: 'tpl-review',
      page: 'pages/report/report?id=1',
      data: { thing1: '一二三四五六七八九十一二三四五六七八九十一二三', phrase2: '审核未通过请重新提交', time3: '2026-03-02T01:00:00Z' },
    });
    const sent = sim.messages.at(-1)!;
    expect(sent.touser).toBe(to);
    expect(sent.data).toEqual({ thing1: { value: '一二三四五六七八九十一二三四五六七八九…' }, phrase2: { value: '审核未通过' }, time3: { value: '2026年3月2日 09:00' } });
    expect(sent).toMatchObject({ template_id: 'tpl-review', lang: 'zh_CN', miniprogram_state: 'formal' });
    // One acceptance, one message: the grant is used up.
    expect(await errcodeOf(client.sendSubscribeMessage({ toUser: to, templateId: 'tpl-review', data: { thing1: 'a' } }))).toBe(43101);
    sim.grant(to, 't');
    sim.denyGrant(to); // messages switched off: refused even with a grant
    expect(await errcodeOf(client.sendSubscribeMessage({ toUser: to, templateId: 't', data: { thing1: 'a' } }))).toBe(43101);
    expect(sim.messages.filter((m) => m.touser === to)).toHaveLength(1);
  });

  it('a grant is per user and per template; the simulator-only /sim/subscribe records one as the dialog’s 允许 does', async () => {
    const to = sim.openidFor('grant-user');
    const send = (templateId: string, toUser = to) => errcodeOf(client.sendSubscribeMessage({ toUser, templateId, data: { thing1: 'a' } }));
    expect(await send('tpl-a')).toBe(43101);
    const granted = await fetch(`${sim.url}/sim/subscribe`, { method: 'POST', body: JSON.stringify({ user: 'sim:grant-user#7', templateIds: ['tpl-a', 'tpl-a'] }) });
    expect(await granted.json()).toEqual({ errcode: 0, errmsg: 'ok', openid: to, granted: ['tpl-a', 'tpl-a'] });
    expect(sim.grantsLeft(to, 'tpl-a')).toBe(2);
    expect(await send('tpl-b')).toBe(43101); // another template
    expect(await send('tpl-a', sim.openidFor('someone-else'))).toBe(43101); // another user
    expect(await send('tpl-a')).toBe(0);
    expect(await send('tpl-a')).toBe(0);
    expect(await send('tpl-a')).toBe(43101);
    const bad = await fetch(`${sim.url}/sim/subscribe`, { method: 'POST', body: JSON.stringify({ user: 'nobody', templateIds: ['tpl-a'] }) });
    expect(((await bad.json()) as { errcode: number }).errcode).toBe(40097);
  });
});

describe('platform client: logs', () => {
  it('logs errors with errcode, errmsg and rid but never the secret, session key or access token', async () => {
    logLines.length = 0;
    sim.failNext('jscode2session', 40029);
    await errcodeOf(client.code2Session(fresh()));
    sim.failNext('getuserphonenumber', 40001, { times: 2 });
    await errcodeOf(client.getPhoneNumber('sim:13500000001'));
    const code = fresh();
    const s = await client.code2Session(code);
    const all = logLines.join('\n');
    const entries = logLines.map((l) => JSON.parse(l));
    expect(entries.some((e) => e.errcode === 40029 && e.platformApi === 'jscode2session' && /^[0-9a-f-]{26}$/.test(e.rid))).toBe(true);
    expect(entries.some((e) => e.errcode === 40001 && e.platformApi === 'getuserphonenumber')).toBe(true);
    expect(all).not.toContain(sim.secret);
    expect(all).not.toContain(s.sessionKey);
    expect(all).not.toContain('access_token=');
  });
});
