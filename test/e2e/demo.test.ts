/**
 * The demo's scenario as an end-to-end test, through HTTP on the whole service (fresh database,
 * platform simulator, background consumers running, time-lapse clock).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { cliCommands } from '../../src/cli/commands.ts';
import { runScenario } from '../../demo/scenario.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T07:30:00+08:00');
  app.service.background.start();
});
afterAll(() => app.close());

it('runs the whole scenario and every answer fits the specification', async () => {
  const lines: string[] = [];
  const result = await runScenario({
    baseUrl: app.url,
    setTime: (iso) => app.clock.set(iso),
    addFirstAdmin: async (phone, name) => {
      expect(await cliCommands['people:add'].run(app.service.ctx, [phone, name, 'admin'])).toBe(0);
    },
    print: (l) => lines.push(l),
  });
  // Hand-worked from the demo's inputs (demo/sheets.ts, demo/scenario.ts):
  // 张三 08:00–17:00, break 45 min → 29,700 s; corrected lines 480+25 (cycle 24 s, workload 1,200) and
  // 1,000+10 (cycle 12 s, workload 2,400): actual 29,700 / 1,515 = 19.6040; standard (24·505 + 12·1,010) / 1,515 = 16;
  // cycle diff (19.6040 − 16) / 16 = +22.52 %; workload (1,480 − 3,600) / 3,600 = −58.89 %.
  // 王五 08:00–18:01 (re-reported), break 60 min → 32,460 s; 1,500+20 of a 24 s product (workload 1,200):
  // actual 32,460 / 1,520 = 21.3553 → 21.36; diff (21.3553 − 24) / 24 = −11.02 %; workload (1,500 − 1,200) / 1,200 = +25 %.
  expect(result.dashboard.map((r) => [r.employeeName, r.actualCycleSeconds, r.standardCycleSeconds, r.cycleTimeDiffPct, r.reportedQty, r.standardWorkload, r.workloadDiffPct])).toEqual([
    ['张三', 19.6, 16, 22.52, 1515, 3600, -58.89],
    ['王五', 21.36, 24, -11.02, 1520, 1200, 25],
  ]);
  expect(result.auditTrail.map((e) => e.action)).toEqual(['submitted', 'corrected', 'approved', 'break_changed']);
  // The trail as people read it: Chinese actions and roles.
  expect(result.auditTrail.map((e) => [e.actionLabel, e.roleLabel])).toEqual([
    ['提交', '员工'],
    ['修正', '管理员'],
    ['通过', '管理员'],
    ['修改休息时间', '经理'],
  ]);
  expect(lines.filter((l) => /（(worker|admin|manager)）|\b(approved|rejected|submitted)\b/.test(l))).toEqual([]);
  const sheet = XLSX.read(result.workbook).Sheets;
  const rows = XLSX.utils.sheet_to_json<any>(Object.values(sheet)[0], { header: 1 });
  expect(rows).toHaveLength(3);
  expect(lines.some((l) => l.includes('重新报工'))).toBe(true);
  // Wages, by hand: 张三 480 × 1.25 + 25 × (−0.5) = 587.50 and 1,000 × 0.35 (the raise from 3 March's
  // first day of work, 2 March) = 350.00 → 937.50; 王五 1,500 × 1.25 + 20 × (−0.5) = 1,865.00; March 2,802.50.
  expect(result.statement.reports.flatMap((r: any) => r.lines.map((l: any) => [l.productName, l.pieceRate, l.defectRate, l.amount]))).toEqual([
    ['前围横梁', '1.2500', '-0.5000', '587.50'],
    ['座椅滑轨', '0.3500', '0.0000', '350.00'],
  ]);
  expect([result.statement.amount, result.close.amount, result.close.workers]).toEqual(['937.50', '2802.50', 2]);
  const wages = XLSX.read(result.wagesWorkbook).Sheets;
  expect(XLSX.utils.sheet_to_json<any>(wages['汇总'], { header: 1 })).toEqual([
    ['手机号', '姓名', '车间', '班组', '报工单数', '成品数量', '不良数量', '计件工资', '未定价行'],
    // 车间 and 班组 are empty: the demo's workers are in no team
    ['13900000011', '张三', undefined, undefined, 1, 1480, 35, 937.5, 0],
    ['13900000013', '王五', undefined, undefined, 1, 1500, 20, 1865, 0],
    ['合计', undefined, undefined, undefined, 2, 2980, 55, 2802.5, 0],
  ]);
  expect(XLSX.utils.sheet_to_json<any>(wages['明细'], { header: 1 })).toHaveLength(5); // header, 3 lines, 合计
  expect(lines.some((l) => l.includes('2026年3月已结账'))).toBe(true);
});
