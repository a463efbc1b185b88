/**
 * Import benchmark: preview and confirm of a generated 10,000-row product sheet (title row, merged
 * 项目号, every column of spec 2.1) through the HTTP endpoints, then a second preview and confirm of the same
 * sheet with every cycle time changed (10,000 updates). Beside them, baselines measured in the same run: SheetJS
 * reading the same file alone (the floor of a preview) and a plain one-statement INSERT of 10,000 rows into a
 * table of the same shape (the floor of a confirmation). The service runs in its own process (src/main.ts with
 * the node flags of `npm start`), so its peak RSS (Linux VmHWM) is the service's alone.
 * Targets: preview ≤ 1.5 s, confirm ≤ 2 s, peak RSS ≤ 300 MB.
 *
 * Then every hostile file of test/helpers/hostile-workbooks.ts, and an honest 50,000-row list beside
 * them, each sent to a service process of its own, started for it and warmed by one small import (the parse
 * thread started): the peak RSS the file raises the process to over its idle RSS (VmHWM, reset through
 * /proc/<pid>/clear_refs once the process is idle), the time until its
 * answer, and the longest answer time of `/api/health`, asked in a loop meanwhile from a thread of its own (its
 * baseline: the same loop in the second before, nothing else sent). Targets: peak RSS ≤ idle + 300 MB, each refusal within 5 s, health never more than
 * 50 ms.
 *
 * Last, million-row workbooks sent three at once (bench/import-at-once.ts).
 * `BENCH_IMPORT=honest,hostile,at-once` (the default) picks the parts that run.
 */
import pg from 'pg';
import * as XLSX from 'xlsx';
import { TokenService } from '../src/auth/tokens.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { fmt, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';
import { concurrentHostileUploads } from './import-at-once.ts';
import { healthDuring, peakRssMb, resetPeakRss, rssMb, startServer, stopServer, uploadProducts, warmUp } from './service-process.ts';
import { HOSTILE_FILES, PRODUCT_HEADER_XML, productRowsXml, sheetXml, xlsxOf } from '../test/helpers/hostile-workbooks.ts';

const ROWS = 10_000;
const HEADER = ['项目号', '型材号', '产品名称', '物料编码', '物料名称', '使用设备', '工序', '冲压方式', '操作人数', '不包含物料转运节拍', '标准节拍', '标准工作量', '备注'];

function sheet(cycleShift: number): Buffer {
  const aoa: unknown[][] = [['冲压车间 产品标准节拍表'], HEADER];
  const merges: XLSX.Range[] = [];
  for (let i = 0; i < ROWS; i++) {
    const project = Math.floor(i / 20);
    if (i % 20 === 0) merges.push({ s: { r: i + 2, c: 0 }, e: { r: i + 19, c: 0 } });
    const cycle = 10 + (i % 50) + cycleShift;
    aoa.push([
      i % 20 === 0 ? `XM-2026-${String(project).padStart(4, '0')}` : null,
      `XC6063-${i}`,
      `产品${i}`,
      String(9_000_000_000 + i),
      '6063-T5 铝型材 60x30',
      `JC-${String(i % 40).padStart(2, '0')}`,
      ['落料', '冲孔', '折弯', '修边'][i % 4],
      '级进模',
      1 + (i % 3),
      cycle * 0.8,
      cycle,
      i % 5 === 0 ? 900 : null,
      i % 7 === 0 ? '首件确认' : null,
    ]);
  }
  const ws = XLSX.utils.aoa_to_sheet(aoa as any[][]);
  ws['!merges'] = merges.filter((m) => m.e.r <= ROWS + 1);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, '产品清单');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true });
}

/** The parts that run (module docstring): `honest` (10,000 rows), `hostile` (files one by one), `at-once`. */
const parts = (process.env.BENCH_IMPORT ?? 'honest,hostile,at-once').split(',');

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await runMigrations(pool);
    await pool.query(`INSERT INTO personnel (phone, name, role) VALUES ('13800138000', '基准', 'admin')`);
    const token = new TokenService('bench', '1h').issue({ phone: '13800138000', role: 'admin' });
    try {
      if (parts.includes('honest')) await honestImports(url, pool, token);
    } finally {
      await pool.end();
    }
    if (parts.includes('hostile')) await hostileFiles(url, token);
    if (parts.includes('at-once')) await concurrentHostileUploads(url, token);
  });
}

/** The 10,000-row previews and confirmations beside their baselines (module docstring). */
async function honestImports(url: string, pool: pg.Pool, token: string): Promise<void> {
  const first = sheet(0);
  const second = sheet(1);
  console.log(`sheet: ${ROWS} rows, ${fmt(first.length / 1024)} KB`);
  const { child, base } = await startServer(url);
  try {
    const post = async (path: string, data?: Buffer) => {
      let body: FormData | undefined;
      if (data) {
        body = new FormData();
        body.append('file', new Blob([data]), 'products.xlsx');
      }
      const res = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
      const json: any = await res.json();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const idleMb = peakRssMb(child.pid!);

    // Baselines: the same read options as the import, and one plain INSERT of the same number of rows.
    const parse = await timed(async () => XLSX.read(first, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false, cellText: false }));
    await pool.query(`CREATE TABLE raw_products (LIKE products INCLUDING ALL)`);
    const raw = await timed(() =>
      pool.query(
        `INSERT INTO raw_products (project_no, profile_no, product_name, material_code, material_name, device_no, process_name,
                                   stamping_method, operator_count, standard_cycle_seconds, standard_workload)
         SELECT 'XM-' || (i / 20), 'XC-' || i, '产品' || i, (9000000000 + i)::text, '6063-T5 铝型材 60x30', 'JC-' || (i % 40),
                '落料', '级进模', 1, 10 + i % 50, 28800 / (10 + i % 50)
           FROM generate_series(0, $1::int - 1) AS i`,
        [ROWS],
      ),
    );

    let preview: any;
    const p1 = await timed(async () => (preview = await post('/api/products/import', first)));
    const p1Mb = peakRssMb(child.pid!);
    if (preview.counts.create !== ROWS) throw new Error(`expected ${ROWS} creates, got ${JSON.stringify(preview.counts)}`);
    const c1 = await timed(() => post(`/api/products/import/${preview.importId}/confirm`));
    const c1Mb = peakRssMb(child.pid!);
    const p2 = await timed(async () => (preview = await post('/api/products/import', second)));
    if (preview.counts.update !== ROWS) throw new Error(`expected ${ROWS} updates, got ${JSON.stringify(preview.counts)}`);
    const c2 = await timed(() => post(`/api/products/import/${preview.importId}/confirm`));
    const c2Mb = peakRssMb(child.pid!);
    const n = await pool.query(`SELECT count(*)::int AS n FROM products`);
    if (n.rows[0].n !== ROWS) throw new Error(`expected ${ROWS} products, found ${n.rows[0].n}`);

    const line = (label: string, s: number, extra = '') => console.log(`${label.padEnd(46)} ${fmt(s, 3).padStart(7)} s${extra}`);
    line('baseline: SheetJS read of the file alone', parse);
    line('baseline: one INSERT … SELECT of 10,000 rows', raw);
    line('preview, 10,000 new rows (HTTP upload)', p1, '   (target ≤ 1.5 s)');
    line('confirm, 10,000 creates', c1, '   (target ≤ 2 s)');
    line('preview, 10,000 changed rows', p2, '   (target ≤ 1.5 s)');
    line('confirm, 10,000 updates', c2, '   (target ≤ 2 s)');
    console.log(
      `service peak RSS: ${fmt(idleMb)} MB after start, ${fmt(p1Mb)} MB after the first preview, ${fmt(c1Mb)} MB after its confirm, ` +
        `${fmt(c2Mb)} MB at the end (target ≤ 300 MB)`,
    );
  } finally {
    await stopServer(child);
  }
}

/** The hostile files and an honest 50,000-row list, each on a service process of its own (module docstring). */
async function hostileFiles(url: string, token: string): Promise<void> {
  const honest = {
    name: 'honest list: 50,000 rows (reference, not hostile)',
    fileName: 'products.xlsx',
    build: () => xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(50_000)) }),
  };
  console.log(`\nhostile files, each on a fresh service process`);
  console.log(`${'file'.padEnd(80)} ${'answer'.padEnd(28)} ${'time'.padStart(8)} ${'peak − idle'.padStart(12)} ${'health max'.padStart(11)} ${'(1 s before)'.padStart(12)}`);
  const worst = { rss: 0, time: 0, health: 0 };
  let worstQuiet = 0;
  for (const file of [...HOSTILE_FILES, honest]) {
    const data = file.build();
    const { child, base } = await startServer(url);
    try {
      await warmUp(base, token);
      const quiet = Math.max(...(await healthDuring(base, () => new Promise((r) => setTimeout(r, 1000))))[1]);
      const pid = child.pid!;
      const idle = rssMb(pid);
      resetPeakRss(pid);
      const [a, samples] = await healthDuring(base, () => uploadProducts(base, token, data, file.fileName));
      const over = peakRssMb(pid) - idle;
      const h = { longest: Math.max(...samples) };
      if (file !== honest) {
        worstQuiet = Math.max(worstQuiet, quiet);
        worst.rss = Math.max(worst.rss, over);
        if (a.refused) worst.time = Math.max(worst.time, a.seconds);
        worst.health = Math.max(worst.health, h.longest);
      }
      const label = `${file.name} (${fmt(data.length / 1024)} KB)`;
      console.log(
        `${label.padEnd(80)} ${a.text.padEnd(28)} ${fmt(a.seconds, 2).padStart(6)} s ${fmt(over).padStart(9)} MB ${fmt(h.longest, 1).padStart(8)} ms ${fmt(quiet, 1).padStart(9)} ms`,
      );
    } finally {
      await stopServer(child);
    }
  }
  console.log(
    `worst hostile file: peak RSS ${fmt(worst.rss)} MB over idle (target ≤ 300), refusal ${fmt(worst.time, 2)} s (target ≤ 5), ` +
      `health ${fmt(worst.health, 1)} ms (target ≤ 50; the same loop in the second before each file, nothing else sent: up to ${fmt(worstQuiet, 1)} ms)`,
  );
}

export const importBench: BenchSuite = { name: 'import', run };
