/**
 * The demo scenario: the whole service driven through HTTP as the mini-program, an administrator
 * and a manager would, on a time-lapse clock (a shift of 8–10 hours in a few seconds). Every answer is checked
 * against the specification; the first difference throws `DemoFailure`.
 *
 * `runScenario(opts)` → the figures it saw (dashboard rows, audit trail, workbook bytes).
 * Steps: 1 first administrator (CLI) and login through the simulator; 2 product and personnel import with
 * preview and confirm; 3 device codes; 4 a shift for three workers (one renews an expired window with 重新报工);
 * 5 review (approve with a corrected line, reject with a reason, approve) and a manager's break change;
 * 6 dashboard rows (checked against the formulas of decisions.md "Calculations"), audit trail, workbook;
 * 7 piece-rate wages: the rates the product list brought, a raise from the day of the shift, a
 *   worker's statement and the month's summary (checked against the sums worked out here from the approved
 *   quantities and the rates), the close of March, a change inside it refused, the reopen with a reason and the
 *   second close, the worker's own statement and the payroll workbook.
 */
import { ROLE_LABELS, type Role } from '../src/auth/roles.ts';
import { peopleSheet, productSheet } from './sheets.ts';

export class DemoFailure extends Error {}

export interface ScenarioOptions {
  /** Origin of the running service, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** Sets the service's clock to an instant (the time-lapse). */
  setTime(iso: string): void;
  /**
   * Makes sure the first administrator exists, the way a new factory does: `npm run cli -- people:add … admin`
   * (with the embedded database the CLI runs before the service starts, as it cannot share the data folder).
   */
  addFirstAdmin(phone: string, name: string): Promise<void>;
  /** Product / personnel spreadsheets to import instead of the demo's own (file name and bytes). */
  productsFile?: { name: string; bytes: Buffer };
  peopleFile?: { name: string; bytes: Buffer };
  /** Where each step's lines go. */
  print(line: string): void;
}

export interface ScenarioResult {
  dashboard: any[];
  auditTrail: any[];
  workbook: Buffer;
  /** The first worker's wage statement of March, its close, and the wages workbook. */
  statement: any;
  close: any;
  wagesWorkbook: Buffer;
}

const DAY = '2026-03-02';
const at = (hhmm: string) => `${DAY}T${hhmm}:00+08:00`;
const ADMIN = { phone: '13800000001', name: '王管理' };

export async function runScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const api = client(o.baseUrl);
  const say = o.print;
  let n = 0;
  const login = async (phone: string, role?: string) => {
    const first = await api.call('POST', '/api/auth/platform-login', { body: { code: `sim:demo-${phone}#${++n}`, phoneCode: `sim:${phone}` } });
    expect(first.status, 200, `登录 ${phone}`);
    if (first.body.status === 'ok') return first.body.token as string;
    expect(first.body.status, 'choose_role', `登录 ${phone}：选择角色`);
    const done = await api.call('POST', '/api/auth/platform-login/complete', { body: { ticket: first.body.ticket, role } });
    expect(done.status, 200, `登录 ${phone}：以 ${role} 身份`);
    return done.body.token as string;
  };

  // 1. The first administrator, then login through the platform simulator.
  o.setTime(at('07:30'));
  say('1. 第一个管理员（命令行 people:add），通过平台模拟器登录');
  await o.addFirstAdmin(ADMIN.phone, ADMIN.name);
  const admin = await login(ADMIN.phone);
  const me = await api.call('GET', '/api/auth/me', { token: admin });
  expect(me.body.role, 'admin', '管理员登录后的角色');
  say(`   ${me.body.person.name} 已登录，角色：${ROLE_LABELS[me.body.role as Role]}`);

  // 2. Imports: preview with its error rows, then confirm.
  say('2. 导入产品清单和人员清单（先预览，再确认）');
  for (const [kind, file] of [
    ['products', o.productsFile ?? { name: 'demo-products.xlsx', bytes: productSheet() }],
    ['people', o.peopleFile ?? { name: 'demo-people.xlsx', bytes: peopleSheet() }],
  ] as const) {
    const preview = await api.upload(`/api/${kind}/import`, file, admin);
    expect(preview.status, 200, `${file.name} 预览`);
    const c = preview.body.counts;
    say(`   ${file.name}：新增 ${c.create}，更新 ${c.update}，不变 ${c.unchanged}，错误 ${c.errors}`);
    for (const e of preview.body.errors) say(`     第 ${e.row} 行：${e.reason}`);
    if (!o.productsFile && !o.peopleFile) expect(c.errors, 3, `${file.name} 的错误行数`);
    const confirmed = await api.call('POST', `/api/${kind}/import/${preview.body.importId}/confirm`, { token: admin });
    expect(confirmed.status, 200, `${file.name} 确认导入`);
    say(`   已确认：写入 ${confirmed.body.counts.created + confirmed.body.counts.updated} 行`);
  }
  const again = await api.upload('/api/products/import', o.productsFile ?? { name: 'demo-products.xlsx', bytes: productSheet() }, admin);
  expect(again.body.counts.create + again.body.counts.update, 0, '同一文件再次预览：全部不变');

  // People the shift needs: three workers and a manager (created through the API if the list has none).
  const people = (await api.call('GET', '/api/people?pageSize=100', { token: admin })).body.items as { phone: string; name: string; roles: string[] }[];
  const workers = people.filter((p) => p.roles.includes('worker')).slice(0, 3);
  for (let i = workers.length; i < 3; i++) {
    const p = { phone: `1390000009${i}`, name: `演示员工${i + 1}`, role: 'worker' };
    expect((await api.call('POST', '/api/people', { token: admin, body: p })).status, 200, `新增员工 ${p.name}`);
    workers.push({ phone: p.phone, name: p.name, roles: ['worker'] });
  }
  let manager = people.find((p) => p.roles.includes('manager'));
  if (!manager) {
    manager = { phone: '13800000009', name: '演示经理', roles: ['manager'] };
    expect((await api.call('POST', '/api/people', { token: admin, body: { ...manager, role: 'manager' } })).status, 200, '新增经理');
  }

  // 3. Device codes.
  say('3. 生成设备小程序码');
  const codes = await api.call('POST', '/api/devices/qrcodes', { token: admin });
  expect(codes.status, 200, '生成全部设备码');
  expect(codes.body.failed.length, 0, '生成失败的设备数');
  for (const c of codes.body.items) say(`   ${c.deviceNo.padEnd(8)} scene ${c.scene.padEnd(22)} ${c.url}`);
  const image = await fetch(new URL(codes.body.items[0].url, o.baseUrl));
  const png = Buffer.from(await image.arrayBuffer());
  expect(png.subarray(1, 4).toString('latin1'), 'PNG', '设备码图片（无需令牌）是 PNG');
  const devices = codes.body.items as { deviceNo: string; deviceKey: string; scene: string }[];
  const byScene = (d: { deviceNo: string; deviceKey: string; scene: string }) =>
    d.scene.startsWith('d=') ? `deviceKey=${encodeURIComponent(d.deviceKey)}` : `deviceNo=${encodeURIComponent(d.deviceNo)}`;
  const bodyOf = (d: { deviceNo: string; deviceKey: string; scene: string }) => (d.scene.startsWith('d=') ? { deviceKey: d.deviceKey } : { deviceNo: d.deviceNo });
  if (devices.length < 2) throw new DemoFailure('产品清单至少需要两台设备');
  // Two devices with plain codes for the first worker's switch, and (when there is one) a device whose code
  // carries the short key (a number with a space or Chinese) for the second worker.
  const plain = devices.filter((d) => !d.scene.startsWith('d='));
  const [devA, devB] = plain.length >= 2 ? plain : devices;
  const devC = devices.find((d) => d.scene.startsWith('d=')) ?? devices[devices.length - 1];

  // 4. The shift.
  say('4. 一个班次：扫码 → 开始上班 → 换设备 → 下班报工 → 填报 → 提交');
  const tokens = new Map<string, string>();
  for (const w of workers) tokens.set(w.phone, await login(w.phone));
  const scan = async (w: { phone: string; name: string }, d: (typeof devices)[number], label: string) => {
    const r = await api.call('GET', `/api/clock/state?${byScene(d)}`, { token: tokens.get(w.phone) });
    expect(r.status, 200, `${w.name} 扫 ${d.deviceNo}`);
    expect(r.body.label, label, `${w.name} 扫 ${d.deviceNo} 的标签`);
    say(`   ${w.name} 扫 ${d.deviceNo} → ${r.body.label}`);
    return r.body;
  };
  const act = async (w: { phone: string; name: string }, op: string, d: (typeof devices)[number]) => {
    const r = await api.call('POST', `/api/clock/${op}`, { token: tokens.get(w.phone), body: bodyOf(d) });
    expect(r.status, 200, `${w.name} ${op} @ ${d.deviceNo}`);
    return r.body;
  };
  /** Fills the report from the draft: `qty[i]` = [finished, defective] for the i-th chosen candidate. */
  const submit = async (w: { phone: string; name: string }, sessionId: string, picks: [string, number, number][]) => {
    const draft = await api.call('GET', `/api/reports/draft?sessionId=${sessionId}`, { token: tokens.get(w.phone) });
    expect(draft.status, 200, `${w.name} 取报工草稿`);
    const lines = picks.map(([device, finishedQty, defectiveQty]) => {
      // The device's first product in list order (lowest id), so the figures are reproducible.
      const c = draft.body.candidates.filter((x: any) => x.deviceNo === device).sort((a: any, b: any) => a.productId - b.productId)[0];
      if (!c) throw new DemoFailure(`草稿里没有设备 ${device} 的产品`);
      return { candidate: c, productId: c.productId, finishedQty, defectiveQty };
    });
    const r = await api.call('POST', '/api/reports', { token: tokens.get(w.phone), body: { sessionId, lines: lines.map(({ candidate: _c, ...l }) => l) } });
    expect(r.status, 201, `${w.name} 提交报工单`);
    expect(r.body.reportDate, DAY, `${w.name} 报工日期（确认当天）`);
    say(`   ${w.name} 提交报工单：${lines.map((l) => `${l.candidate.productName} 成品 ${l.finishedQty} 不良 ${l.defectiveQty}`).join('；')}（休息 ${draft.body.breakMinutes} 分钟）`);
    return { reportId: r.body.reportId as string, draft: draft.body, lines };
  };

  const [w1, w2, w3] = workers;
  o.setTime(at('08:00'));
  await scan(w1, devA, '开始上班');
  const s1 = await act(w1, 'start', devA);
  await scan(w2, devC, '开始上班');
  const s2 = await act(w2, 'start', devC);
  await scan(w3, devA, '开始上班');
  const s3 = await act(w3, 'start', devA);
  o.setTime(at('12:30'));
  await scan(w1, devB, '换设备');
  await act(w1, 'switch-device', devB);
  o.setTime(at('16:30'));
  await scan(w2, devC, '下班报工');
  await act(w2, 'finish', devC);
  o.setTime(at('16:35'));
  const r2 = await submit(w2, s2.sessionId, [[devC.deviceNo, 700, 0]]);
  o.setTime(at('17:00'));
  await scan(w1, devB, '下班报工');
  await act(w1, 'finish', devB);
  await scan(w1, devB, '继续报工');
  o.setTime(at('17:05'));
  const r1 = await submit(w1, s1.sessionId, [
    [devA.deviceNo, 500, 5],
    [devB.deviceNo, 1000, 10],
  ]);
  await scan(w1, devA, '开始上班');
  o.setTime(at('17:30'));
  await scan(w3, devA, '下班报工');
  await act(w3, 'finish', devA);
  o.setTime(at('18:01'));
  say(`   （${w3.name} 31 分钟没有提交，填写时限已过）`);
  const expired = await api.call('GET', `/api/reports/draft?sessionId=${s3.sessionId}`, { token: tokens.get(w3.phone) });
  expect(expired.status, 409, `${w3.name} 过期后取草稿`);
  expect(expired.body.error.code, 'REPORT_WINDOW_EXPIRED', '过期的错误代码');
  say(`   ${w3.name} 取草稿 → 409 ${expired.body.error.message}`);
  await scan(w3, devA, '重新报工');
  const renewed = await act(w3, 'finish', devA);
  expect(renewed.clockOutAt.slice(11, 16), '18:01', '重新报工后的下班时间');
  const r3 = await submit(w3, s3.sessionId, [[devA.deviceNo, 1500, 20]]);

  // 5. Review and the manager's break change.
  say('5. 审核：通过（修正一行）、驳回（附原因）、通过；经理修改休息时长');
  const pending = await api.call('GET', '/api/reviews/pending', { token: admin });
  expect(pending.body.total, 3, '待审核报工单数');
  const corrected = r1.lines.map((l, i) => ({ productId: l.productId, finishedQty: i === 0 ? 480 : l.finishedQty, defectiveQty: i === 0 ? 25 : l.defectiveQty }));
  const a1 = await api.call('POST', `/api/reviews/${r1.reportId}/approve`, { token: admin, body: { lines: corrected } });
  expect(a1.status, 200, `通过 ${w1.name} 的报工单（修正）`);
  expect(a1.body.corrected, true, '修正标记');
  say(`   通过 ${w1.name}：${r1.lines[0].candidate.productName} 成品 500→480，不良 5→25`);
  const reason = '数量与班组记录不符，请核对';
  const j2 = await api.call('POST', `/api/reviews/${r2.reportId}/reject`, { token: admin, body: { reason } });
  expect(j2.status, 200, `驳回 ${w2.name} 的报工单`);
  say(`   驳回 ${w2.name}：${reason}`);
  expect((await api.call('POST', `/api/reviews/${r3.reportId}/approve`, { token: admin, body: {} })).status, 200, `通过 ${w3.name}`);
  say(`   通过 ${w3.name}`);
  const again2 = await api.call('POST', `/api/reviews/${r2.reportId}/approve`, { token: admin, body: {} });
  expect(again2.status, 409, '已驳回的报工单不能再审核');
  const mine = await api.call('GET', `/api/reports/mine?startDate=${DAY}&endDate=${DAY}`, { token: tokens.get(w2.phone) });
  expect(mine.body.items[0]?.status, 'rejected', `${w2.name} 看到自己的报工单被驳回`);
  const boss = await login(manager.phone, 'manager');
  o.setTime(at('18:30'));
  const brk = await api.call('PATCH', `/api/reports/${r1.reportId}/break-minutes`, { token: boss, body: { breakMinutes: 45, reason: '午休缩短' } });
  expect(brk.status, 200, '经理修改休息时长');
  say(`   ${manager.name} 把 ${w1.name} 的休息时长改为 45 分钟（午休缩短）`);

  // 6. Dashboard, audit trail, workbook.
  say('6. 看板（只统计已通过的报工单，按日期 + 员工合并）');
  const expected = [
    figures(w1.phone, '08:00', '17:00', 45, r1.lines.map((l, i) => ({ ...l.candidate, finishedQty: corrected[i].finishedQty, defectiveQty: corrected[i].defectiveQty }))),
    figures(w3.phone, '08:00', '18:01', r3.draft.breakMinutes, r3.lines.map((l) => ({ ...l.candidate, finishedQty: l.finishedQty, defectiveQty: l.defectiveQty }))),
  ].sort((a, b) => a.employeePhone.localeCompare(b.employeePhone));
  let rows: any[] = [];
  for (let i = 0; i < 200; i++) {
    const d = await api.call('GET', `/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, { token: boss });
    expect(d.status, 200, '看板');
    rows = d.body.items;
    const moved = rows.find((r) => r.employeePhone === w1.phone);
    if (rows.length === 2 && moved?.actualCycleSeconds === expected.find((e) => e.employeePhone === w1.phone)!.actualCycleSeconds) break;
    await new Promise((r) => setTimeout(r, 50)); // the dashboard projection runs in the background
  }
  say('   日期        员工   实际节拍  标准节拍  节拍±%   报工数  标准工作量  工作量±%');
  for (const r of rows) {
    say(
      `   ${r.reportDate}  ${(r.employeeName ?? '').padEnd(4, '　')} ${fmt(r.actualCycleSeconds)} ${fmt(r.standardCycleSeconds)} ${fmt(r.cycleTimeDiffPct)} ${String(r.reportedQty).padStart(7)} ${String(r.standardWorkload).padStart(9)} ${fmt(r.workloadDiffPct)}`,
    );
  }
  expect(
    rows.map((r) => pick(r)),
    expected,
    '看板数字（decisions.md“计算”：有效工时、实际节拍、标准节拍、节拍±%、报工数、标准工作量、工作量±%）',
  );
  const audit = await api.call('GET', `/api/reports/${r1.reportId}/audit-logs`, { token: boss });
  expect(audit.status, 200, '审计记录');
  const trail = audit.body.items as any[];
  expect(trail.map((e) => e.action), ['submitted', 'corrected', 'approved', 'break_changed'], `${w1.name} 报工单的审计记录`);
  say(`   审计记录（${w1.name} 的报工单）：`);
  const qty = (l: any) => (l ? `${l.productName} 成品 ${l.finishedQty} 不良 ${l.defectiveQty}` : '—');
  for (const e of trail) {
    const what =
      e.action === 'submitted'
        ? `提交 ${e.after.lines.length} 行，休息 ${e.after.breakMinutes} 分钟`
        : e.action === 'corrected'
          ? `修正 ${qty(e.before)} → ${qty(e.after)}`
          : e.action === 'break_changed'
            ? `修改休息时间 ${e.before.breakMinutes} → ${e.after.breakMinutes} 分钟`
            : e.actionLabel;
    say(`     ${e.at.slice(11, 16)}  ${e.actorName ?? e.actorPhone}（${e.roleLabel ?? e.role}） ${what}${e.reason ? `，原因：${e.reason}` : ''}`);
  }
  const xlsx = await fetch(`${o.baseUrl}/api/dashboard/reports.xlsx?startDate=${DAY}&endDate=${DAY}`, { headers: { authorization: `Bearer ${boss}` } });
  expect(xlsx.status, 200, '看板表格');
  const workbook = Buffer.from(await xlsx.arrayBuffer());
  expect(workbook.subarray(0, 2).toString('latin1'), 'PK', '看板表格是 .xlsx');

  // 7. Wages and the monthly close.
  say('7. 计件工资与月结（单价随产品清单导入；按报工日期当天有效的单价，每行四舍五入到分）');
  const [first, second] = r1.lines.map((l) => l.candidate);
  const history = await api.call('GET', `/api/products/${second.productId}/rates`, { token: boss });
  expect(history.status, 200, `${second.productName} 的单价记录`);
  const old = history.body.items[0];
  const raise = await api.call('POST', `/api/products/${second.productId}/rates`, { token: boss, body: { pieceRate: '0.35', effectiveFrom: DAY, reason: '新模具提速后调价' } });
  expect(raise.status, 201, '经理调价');
  say(`   ${manager.name} 把 ${second.productName} 的计件单价从 ${DAY} 起由 ${old.pieceRate} 调为 ${raise.body.pieceRate}（原因：新模具提速后调价）`);
  // By hand: the rates of the product list (前围横梁 1.25 / −0.5) and the raise (座椅滑轨 0.35 / 0).
  const rates = new Map<number, [number, number]>([
    [first.productId, [12_500, -5_000]],
    [second.productId, [3_500, 0]],
  ]);
  const lineFen = (productId: number, finished: number, defective: number) => {
    const [piece, defect] = rates.get(productId)!;
    const t = finished * piece + defective * defect; // ten-thousandths of a yuan, far below 2^53 here
    return Math.sign(t) * Math.round(Math.abs(t) / 100); // half away from zero (integers: exact)
  };
  const yuan = (fen: number) => `${fen < 0 ? '-' : ''}${Math.floor(Math.abs(fen) / 100)}.${String(Math.abs(fen) % 100).padStart(2, '0')}`;
  const w1Lines = corrected.map((l) => lineFen(l.productId, l.finishedQty, l.defectiveQty));
  const w3Lines = r3.lines.map((l) => lineFen(l.productId, l.finishedQty, l.defectiveQty));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  let statement: any;
  for (let i = 0; i < 200; i++) {
    statement = (await api.call('GET', `/api/wages/${w1.phone}?month=2026-03`, { token: boss })).body;
    if (statement.amount === yuan(sum(w1Lines))) break;
    await new Promise((r) => setTimeout(r, 50)); // the wage projection runs in the background
  }
  expect(statement.reports.flatMap((r: any) => r.lines.map((l: any) => l.amount)), w1Lines.map(yuan), `${w1.name} 工资单每行金额`);
  expect(statement.amount, yuan(sum(w1Lines)), `${w1.name} 三月计件工资`);
  say(`   ${w1.name} 的工资单（2026-03）：`);
  for (const r of statement.reports) {
    for (const l of r.lines) {
      say(`     ${r.reportDate}  ${l.productName.padEnd(5, '　')} 成品 ${String(l.finishedQty).padStart(5)} × ${l.pieceRate}  不良 ${String(l.defectiveQty).padStart(3)} × ${l.defectRate}  = ${l.amount.padStart(9)}`);
    }
  }
  say(`     合计 ${statement.amount} 元`);
  const summary = (await api.call('GET', '/api/wages?month=2026-03', { token: boss })).body;
  expect(summary.totals.amount, yuan(sum(w1Lines) + sum(w3Lines)), '三月计件工资总额');
  expect([summary.totals.pendingReports, summary.totals.unpricedLines], [0, 0], '三月待审核与未定价');
  for (const w of summary.items) say(`   ${w.employeeName}：报工单 ${w.reports} 张，成品 ${w.finishedQty}，不良 ${w.defectiveQty}，计件工资 ${w.amount} 元`);
  o.setTime('2026-04-01T09:00:00+08:00');
  const closed = await api.call('POST', '/api/periods/2026-03/close', { token: boss });
  expect(closed.status, 200, '三月结账');
  expect([closed.body.version, closed.body.amount, closed.body.workers], [1, summary.totals.amount, summary.items.length], '结账的数字');
  say(`   （4 月 1 日）${closed.body.closedBy.name} 结账 2026-03：第 ${closed.body.version} 次，${closed.body.workers} 人，计件工资 ${closed.body.amount} 元`);
  const refused = await api.call('PATCH', `/api/reports/${r3.reportId}/break-minutes`, { token: boss, body: { breakMinutes: 30 } });
  expect([refused.status, refused.body.error?.code], [409, 'PERIOD_CLOSED'], '结账后修改三月的报工单');
  say(`   修改三月报工单的休息时间 → 409 ${refused.body.error.message}`);
  const reopened = await api.call('POST', '/api/periods/2026-03/reopen', { token: boss, body: { reason: '补录漏报的产量' } });
  expect([reopened.status, reopened.body.status], [200, 'open'], '反结账');
  say(`   ${manager.name} 反结账 2026-03（原因：补录漏报的产量）→ 未结账`);
  const again3 = await api.call('POST', '/api/periods/2026-03/close', { token: boss });
  expect([again3.status, again3.body.version, again3.body.amount], [200, 2, closed.body.amount], '再次结账');
  say(`   再次结账：第 ${again3.body.version} 次，计件工资 ${again3.body.amount} 元`);
  const periods = (await api.call('GET', '/api/periods', { token: admin })).body.items;
  expect(periods[0].history.map((h: any) => h.actionLabel), ['结账', '反结账', '结账'], '月结记录');
  let mineWage: any;
  for (let i = 0; i < 200; i++) {
    mineWage = (await api.call('GET', '/api/wages/mine?month=2026-03', { token: tokens.get(w1.phone) })).body;
    if (mineWage.previousAmount !== undefined) break;
    await new Promise((r) => setTimeout(r, 50)); // the previous close's amount follows from the wage projection
  }
  expect([mineWage.status, mineWage.version, mineWage.amount, mineWage.previousAmount], ['closed', 2, statement.amount, statement.amount], `${w1.name} 的“我的工资”`);
  say(`   ${w1.name} 在小程序“我的工资”看到：2026-03 已结账（第 ${mineWage.version} 次），${mineWage.amount} 元（上次结账 ${mineWage.previousAmount} 元）`);
  const wagesXlsx = await fetch(`${o.baseUrl}/api/wages.xlsx?month=2026-03`, { headers: { authorization: `Bearer ${boss}` } });
  expect(wagesXlsx.status, 200, '工资表格');
  const wagesWorkbook = Buffer.from(await wagesXlsx.arrayBuffer());
  return { dashboard: rows, auditTrail: trail, workbook, statement, close: closed.body, wagesWorkbook };
}

/** The dashboard row of one approved report, computed here from the demo's own inputs with decisions.md's formulas. */
function figures(
  employeePhone: string,
  clockIn: string,
  clockOut: string,
  breakMinutes: number,
  lines: { standardCycleSeconds: number; standardWorkload: number; finishedQty: number; defectiveQty: number }[],
) {
  const effective = (Date.parse(at(clockOut)) - Date.parse(at(clockIn))) / 1000 - breakMinutes * 60;
  const finished = lines.reduce((s, l) => s + l.finishedQty, 0);
  const defective = lines.reduce((s, l) => s + l.defectiveQty, 0);
  const output = finished + defective;
  const actual = output ? effective / output : null;
  const standard = output ? lines.reduce((s, l) => s + l.standardCycleSeconds * (l.finishedQty + l.defectiveQty), 0) / output : null;
  const workload = lines.reduce((s, l) => s + l.standardWorkload, 0);
  return {
    reportDate: DAY,
    employeePhone,
    actualCycleSeconds: round2(actual),
    standardCycleSeconds: round2(standard),
    cycleTimeDiffPct: actual !== null && standard ? round2(((actual - standard) / standard) * 100) : null,
    reportedQty: output,
    standardWorkload: workload,
    workloadDiffPct: workload ? round2(((finished - workload) / workload) * 100) : null,
  };
}

const pick = (r: any) => ({
  reportDate: r.reportDate,
  employeePhone: r.employeePhone,
  actualCycleSeconds: r.actualCycleSeconds,
  standardCycleSeconds: r.standardCycleSeconds,
  cycleTimeDiffPct: r.cycleTimeDiffPct,
  reportedQty: r.reportedQty,
  standardWorkload: r.standardWorkload,
  workloadDiffPct: r.workloadDiffPct,
});

const round2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);
const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(2)).padStart(8);

function expect(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new DemoFailure(`${what}：期望 ${JSON.stringify(expected)}，实际 ${JSON.stringify(actual)}`);
  }
}

function client(baseUrl: string) {
  return {
    async call(method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
      const headers: Record<string, string> = {};
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(baseUrl + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined } as { status: number; body: any };
    },
    async upload(path: string, file: { name: string; bytes: Buffer }, token: string) {
      const form = new FormData();
      form.append('file', new Blob([file.bytes]), file.name);
      const res = await fetch(baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      return { status: res.status, body: (await res.json()) as any };
    },
  };
}
