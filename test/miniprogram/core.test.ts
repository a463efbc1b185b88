/**
 * The mini-program's rules without WeChat (miniprogram/core/): scenes and scanned paths against the
 * service's own scene encoder (src/platform/device-codes.ts `sceneFor`, src/devices/device.ts `deviceKeyOf`) in both
 * forms WeChat hands them over, the label → operation map against the service's labels, the form's checks and
 * totals, the countdown, error code → next step, the phone button's outcomes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_LABELS } from '../../src/domain/labels.ts';
import { deviceKeyOf } from '../../src/devices/device.ts';
import { CLOCK_PAGE, sceneFor } from '../../src/platform/device-codes.ts';
import { withCorrections } from '../../miniprogram/core/corrections.ts';
import { myReportView, REJECTED_NEXT_STEP } from '../../miniprogram/core/my-report.ts';
import { checkForm, effectiveSeconds, quantityOf } from '../../miniprogram/core/draft.ts';
import { failureOf, nextStep, NOT_IN_PERSONNEL } from '../../miniprogram/core/errors.ts';
import { actionOf, isClockLabel } from '../../miniprogram/core/labels.ts';
import { phoneOutcome, simulatorCodes } from '../../miniprogram/core/login.ts';
import { reasonProblem, teamFigures } from '../../miniprogram/core/review.ts';
import { deviceRefOf, parseScanPath, parseScene } from '../../miniprogram/core/scene.ts';
import { duration, localDay, shiftMonth, weekStart, windowLeft } from '../../miniprogram/core/time.ts';

/** What the service expects for `deviceNo` from a scan: the number itself, or its key. */
const expectedRef = (deviceNo: string) => (sceneFor(deviceNo).startsWith('deviceNo=') ? { deviceNo } : { deviceKey: deviceKeyOf(deviceNo) });

describe('scenes', () => {
  const devices = ['K-12', 'JC-01', '冲床 01', '50%', 'A%20B', 'a b%c', '设备/1', "x'(1)*!~._-", 'A'.repeat(40), '%E4%B8%AD'];

  it.each(devices)('round trip of %j: the service encodes, WeChat hands over, the client names the same device', (deviceNo) => {
    const scene = sceneFor(deviceNo);
    const want = expectedRef(deviceNo);
    // onLoad(options): the scene URL-encoded once; a scan inside the app: the path's query raw, or encoded once.
    expect(parseScene(encodeURIComponent(scene))).toEqual({ kind: 'device', ref: want, scene });
    expect(parseScene(scene)).toEqual({ kind: 'device', ref: want, scene });
    expect(parseScanPath(`pages/clock/clock?scene=${scene}`)).toEqual({ kind: 'device', ref: want, scene });
    expect(parseScanPath(`pages/clock/clock?scene=${encodeURIComponent(scene)}`)).toEqual({ kind: 'device', ref: want, scene });
  });

  it('a device number with a space, Chinese or % always travels as its key, and is never decoded twice', () => {
    for (const d of ['冲床 01', '50%', 'A%20B', '%E4%B8%AD']) expect(sceneFor(d)).toBe(`d=${deviceKeyOf(d)}`);
    expect(parseScene(encodeURIComponent(sceneFor('%E4%B8%AD')))).toMatchObject({ ref: { deviceKey: deviceKeyOf('%E4%B8%AD') } });
  });

  it('holds for any device number (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (deviceNo) => {
        const scene = sceneFor(deviceNo);
        expect(deviceRefOf(encodeURIComponent(scene))).toEqual(expectedRef(deviceNo));
        expect(parseScanPath(`pages/clock/clock?scene=${scene}`)).toMatchObject({ ref: expectedRef(deviceNo) });
      }),
      { seed: 23, numRuns: 300 },
    );
  });

  it("reads the console's sign-in code and refuses anything else with a sentence", () => {
    expect(parseScene('w%3DXa7kP2mQ9rT4vW8y')).toEqual({ kind: 'webLogin', key: 'Xa7kP2mQ9rT4vW8y', scene: 'w=Xa7kP2mQ9rT4vW8y' });
    expect(parseScanPath('pages/login/confirm?scene=w=Xa7kP2mQ9rT4vW8y')).toMatchObject({ kind: 'webLogin', key: 'Xa7kP2mQ9rT4vW8y' });
    for (const s of [undefined, '', 'foo=bar', 'deviceNo=', 'd%3D', 'noequals', '%E4%B8']) expect(parseScene(s)).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/设备码/) });
    for (const p of [undefined, '', 'pages/clock/clock', 'pages/clock/clock?x=1', 'https://example.com/?scene=deviceNo%3DK-12x']) {
      expect(parseScanPath(p).kind).toBe(p?.includes('scene=') ? 'device' : 'unknown');
    }
  });
});

describe('labels', () => {
  it("maps each of the service's labels to its operation (README's table)", () => {
    expect(ALL_LABELS.every(isClockLabel)).toBe(true);
    expect(Object.fromEntries(ALL_LABELS.map((l) => [l, [actionOf(l).operation, actionOf(l).thenReport]]))).toEqual({
      开始上班: ['start', false],
      换设备: ['switch-device', false],
      下班报工: ['finish', true],
      继续报工: [null, true],
      重新报工: ['finish', true],
    });
    expect(isClockLabel('上班')).toBe(false);
    expect(isClockLabel('toString')).toBe(false);
  });
});

describe('the report form', () => {
  const row = (productId: number, finished: string, defective: string) => ({ productId, name: `产品${productId}`, finished, defective });

  it('checks quantities, leaves out blank products and sums output as finished + defective', () => {
    expect(checkForm([row(1, '500', '5'), row(2, '', ''), row(3, '0', '7')])).toEqual({
      lines: [
        { productId: 1, finishedQty: 500, defectiveQty: 5 },
        { productId: 3, finishedQty: 0, defectiveQty: 7 },
      ],
      problems: [],
      totals: { finished: 500, defective: 12, output: 512 },
    });
    expect(checkForm([row(1, '', '')]).problems).toEqual(['请至少填写一个产品的数量']);
    expect(checkForm([row(1, '', '')], true).problems).toEqual([]);
    expect(checkForm([row(1, '-1', '1.5')]).problems).toEqual(['“产品1”的成品数量请填写 0 到 10000000 之间的整数', '“产品1”的不良数量请填写 0 到 10000000 之间的整数']);
    expect(checkForm([row(1, '10000000', '1')]).problems).toEqual(['“产品1”的成品加不良不能超过 10000000']);
    expect(checkForm([row(1, '1', '0'), row(1, '2', '0')]).problems).toEqual(['“产品1”填了两行，同一产品只能填一行']);
    expect(checkForm(Array.from({ length: 201 }, (_, i) => row(i + 1, '1', '0'))).problems).toEqual(['一张报工单最多 200 行']);
    expect([quantityOf(' 12 '), quantityOf('1e3'), quantityOf('０'), quantityOf('10000001')]).toEqual([12, undefined, undefined, undefined]);
  });

  it('gives effective working time and the window countdown (valid at exactly the end)', () => {
    expect(effectiveSeconds('2026-03-02T08:00:00+08:00', '2026-03-02T17:00:00+08:00', 60)).toBe(28800);
    expect(duration(28800)).toBe('8 小时 00 分');
    expect(duration(45 * 60 + 59)).toBe('45 分');
    expect(duration(-5)).toBe('0 分');
    const end = Date.parse('2026-03-02T17:30:00+08:00');
    expect(windowLeft('2026-03-02T17:30:00+08:00', end - 754_500)).toEqual({ expired: false, seconds: 754, text: '还剩 12 分 34 秒' });
    expect(windowLeft('2026-03-02T17:30:00+08:00', end).expired).toBe(false);
    expect(windowLeft('2026-03-02T17:30:00+08:00', end + 1)).toEqual({ expired: true, seconds: 0, text: '填写时限已过' });
    expect(windowLeft('garbage', end).expired).toBe(true);
  });

  it('months, days and weeks', () => {
    expect([shiftMonth('2026-01', -1), shiftMonth('2026-12', 1), shiftMonth('2026-03', 0)]).toEqual(['2025-12', '2027-01', '2026-03']);
    expect([weekStart('2026-03-02'), weekStart('2026-03-08'), weekStart('2026-03-04')]).toEqual(['2026-03-02', '2026-03-02', '2026-03-02']);
    expect(localDay(new Date(2026, 2, 2, 23, 59).getTime())).toBe('2026-03-02');
  });

  it("shows an approval's corrections against what this phone submitted", () => {
    const current = [{ productId: 1, productName: 'A', finishedQty: 480, defectiveQty: 25, outputQty: 505 }, { productId: 3, productName: 'C', finishedQty: 1, defectiveQty: 0, outputQty: 1 }];
    const submitted = [{ productId: 1, name: 'A', finishedQty: 500, defectiveQty: 5 }, { productId: 2, name: 'B', finishedQty: 9, defectiveQty: 0 }];
    const r = withCorrections(current, submitted);
    expect(r.lines.map((l) => l.note)).toEqual(['审核修正：原为 成品 500，不良 5', '审核新增']);
    expect(r.removed).toEqual(['B（原为 成品 9，不良 0）']);
    expect(withCorrections(current).lines.map((l) => l.note)).toEqual(['', '']);
  });

  it('reasons and the team figures', () => {
    expect([reasonProblem(' ', true), reasonProblem('', false), reasonProblem('😀'.repeat(200), true), reasonProblem('😀'.repeat(201), false)]).toEqual(['请填写驳回原因', '', '', '原因最多 200 个字']);
    expect(teamFigures([])).toEqual({ people: 0, reportedQty: 0, finishedQty: 0, standardWorkload: 0, workloadDiff: '—' });
    // (1 − 3) / 3 = −66.666… % → −66.67 %, half away from zero.
    expect(teamFigures([{ reportedQty: 2, finishedQty: 1, standardWorkload: 3 }]).workloadDiff).toBe('-66.67%');
  });
});

describe('errors and login outcomes', () => {
  const f = (status: number, code: string, details?: unknown) => failureOf(status, { error: { code, message: `消息 ${code}`, details, requestId: 'r-9' } });

  it('turns each code into what to show and do next', () => {
    expect(nextStep(f(403, 'PHONE_NOT_REGISTERED'))).toEqual({ action: 'none', text: NOT_IN_PERSONNEL });
    expect(NOT_IN_PERSONNEL).toBe('请联系管理员把你加入人员名单');
    expect(nextStep(f(409, 'CLOCK_STATE_CONFLICT', { label: '下班报工' }))).toMatchObject({ action: 'refresh', label: '下班报工' });
    expect(nextStep(f(409, 'REPORT_WINDOW_EXPIRED', { label: '重新报工', sessionId: 's' }))).toMatchObject({ action: 'rescan', text: expect.stringContaining('重新报工') });
    expect(nextStep(f(409, 'REPORT_ALREADY_SUBMITTED', { sessionId: 's', reportId: 'r1' }))).toMatchObject({ action: 'mine', reportId: 'r1' });
    expect(nextStep(f(401, 'TOKEN_EXPIRED'))).toEqual({ action: 'login', text: '消息 TOKEN_EXPIRED' });
    expect(nextStep(failureOf(429, { error: { code: 'TOO_MANY_LOGIN_ATTEMPTS', message: 'x', requestId: 'r' } }, '37'))).toEqual({ action: 'retry', text: '尝试太多次了，请 37 秒后再试' });
    expect(nextStep(f(503, 'DATABASE_UNAVAILABLE')).action).toBe('retry');
    expect(nextStep(f(500, 'INTERNAL')).text).toContain('r-9');
    expect(nextStep(f(422, 'INVALID_QUANTITY'))).toEqual({ action: 'none', text: '消息 INVALID_QUANTITY' });
    expect(failureOf(502, '<html>bad gateway</html>')).toMatchObject({ status: 502, code: 'HTTP_502', message: '服务器出错了，请稍后再试' });
  });

  it("reads the phone button's outcomes and makes the simulator's single-use codes", () => {
    expect(phoneOutcome({ code: 'abc', errMsg: 'getPhoneNumber:ok' })).toEqual({ ok: true, phoneCode: 'abc' });
    expect(phoneOutcome({ errMsg: 'getPhoneNumber:fail user deny' })).toMatchObject({ ok: false, text: expect.stringContaining('允许') });
    expect(phoneOutcome({ errMsg: 'getPhoneNumber:fail', errno: 1400001 })).toMatchObject({ ok: false, text: expect.stringContaining('上限') });
    expect(phoneOutcome({ errMsg: 'getPhoneNumber:ok' })).toMatchObject({ ok: false, text: expect.stringContaining('更新') });
    expect(phoneOutcome(undefined)).toMatchObject({ ok: false });
    expect(simulatorCodes('13800138000', 'n1')).toEqual({ code: 'sim:mp-13800138000#n1', phoneCode: 'sim:13800138000#n1' });
  });
});

describe('layout', () => {
  const root = fileURLToPath(new URL('../../miniprogram/', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));
  /** The code of a file without its comments. */
  const code = (file: string) => readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

  it('only platform/ touches wx; core/ and the pages use none of it, and nothing reads getApp()', () => {
    const offenders = [...files('core'), ...files('pages'), 'config.ts'].filter((f) => /\bwx\s*\.|\bgetApp\s*\(/.test(code(f)));
    expect(offenders).toEqual([]);
    expect(files('platform').filter((f) => /\bwx\s*\./.test(code(f))).length).toBeGreaterThan(3);
  });

  it('holds no secret: no AppSecret-like value or secret field anywhere in the package', () => {
    const all = [...files('.'), 'project.config.json', 'app.json'];
    expect(all.filter((f) => /\b[0-9a-f]{32}\b|secret\s*[:=]/i.test(code(f)))).toEqual([]);
  });

  it('is CommonJS for DevTools: its package.json is not "type": "module", and project.config.json compiles TypeScript', () => {
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).type).toBeUndefined();
    const project = JSON.parse(readFileSync(join(root, 'project.config.json'), 'utf8'));
    expect(project.setting.useCompilerPlugins).toEqual(['typescript']);
    const app = JSON.parse(readFileSync(join(root, 'app.json'), 'utf8'));
    // The pages the service's codes open exist: the device codes' and the console's sign-in code's.
    expect(app.pages).toEqual(expect.arrayContaining([CLOCK_PAGE, 'pages/login/confirm']));
    for (const page of app.pages) for (const ext of ['ts', 'wxml', 'json']) expect(existsSync(join(root, `${page}.${ext}`)), `${page}.${ext}`).toBe(true);
  });
});

describe('a worker’s report as 我的报工 and the page a review-result message opens show it', () => {
  const line = { productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 };
  const report = {
    reportId: 'r1',
    sessionId: 's1',
    reportDate: '2026-03-02',
    status: 'approved' as const,
    clockInAt: '2026-03-02T08:00:00+08:00',
    clockOutAt: '2026-03-02T17:00:00+08:00',
    breakMinutes: 60,
    effectiveSeconds: 28_800,
    devices: ['K-12', '冲床 01'],
    lines: [{ ...line, finishedQty: 480, defectiveQty: 25, outputQty: 505 }],
    submittedAt: '2026-03-02T17:05:00+08:00',
    reviewedAt: '2026-03-02T18:00:00+08:00',
    rejectReason: null,
    breakSource: 'shift' as const,
    shiftName: '白班',
  };
  const submitted = [{ productId: 1, name: '前围横梁', finishedQty: 500, defectiveQty: 5 }];

  it('approved: times, break source, effective time, devices, the corrected line against what this phone submitted; no next step', () => {
    const v = myReportView(report, submitted);
    expect(v).toMatchObject({ statusName: '已通过', times: '08:00–17:00，休息 60 分钟', breakSource: '按班次「白班」的休息时段计算', effective: '8 小时 00 分', devices: 'K-12、冲床 01', nextStep: '', rejectReason: '' });
    expect(v.lines.map((l) => [l.name, l.finishedQty, l.note])).toEqual([['前围横梁', 480, '审核修正：原为 成品 500，不良 5']]);
  });

  it('rejected: the reason and the next step; what this phone submitted is not compared (nothing was corrected)', () => {
    const v = myReportView({ ...report, status: 'rejected', rejectReason: '数量不对' }, submitted);
    expect([v.statusName, v.rejectReason, v.nextStep]).toEqual(['已驳回', '数量不对', REJECTED_NEXT_STEP]);
    expect(v.lines.map((l) => l.note)).toEqual(['']);
  });
});
