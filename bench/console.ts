/**
 * Web console benchmark, in Debian's Chromium (playwright-core) against the whole service in this
 * process on real PostgreSQL:
 * - the compressed size of the first page's assets: every file of /console/ the login page loads (HTML, scripts,
 *   styles, icon), as transferred (brotli; Chromium's encodedDataLength), beside the baseline of every asset of
 *   the whole console compressed the same way (what one bundle without code-splitting would cost). Target ≤ 500 kB.
 * - the time to render a month's dashboard for 500 employees (500 × 30 approved reports, written as events and
 *   projected): from the page's query to its table and both charts drawn (the page's own `data-render-ms`), and
 *   from navigation to that point, beside the baseline of the page's two API calls alone, fetched in the page.
 *   Target ≤ 1 s.
 * Without a browser (CHROMIUM_PATH or /usr/bin/chromium) the suite says so and measures nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config.ts';
import { startService } from '../src/app.ts';
import { createConsoleLink } from '../src/auth/web-login.ts';
import { dashboardProjection } from '../src/projections/dashboard.ts';
import { replayProjection } from '../src/projections/replay.ts';
import { buildConsole, DIST_DIR } from '../web/scripts/build.ts';
import { INSERT } from './dashboard.ts';
import { fmt, percentile, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const EMPLOYEES = 500;
const DAYS = 30;
const FIRST_DAY = '2026-03-01';
const LAST_DAY = '2026-03-30';
const RUNS = 7;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const kB = (bytes: number) => `${fmt(bytes / 1000, 1)} kB`;

/** Brotli size of every script, style and page of the build (the `.br` beside each, else the file itself). */
function wholeConsoleBytes(dir = DIST_DIR): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) total += wholeConsoleBytes(path);
    else if (/\.(js|css|html|svg)$/.test(name)) total += statSync(existsSync(`${path}.br`) ? `${path}.br` : path).size;
  }
  return total;
}

/** Bytes transferred for /console/ files while `load` runs (Chromium's encodedDataLength: body and headers). */
async function consoleBytes(page: Page, load: () => Promise<unknown>): Promise<{ bytes: number; files: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  let bytes = 0;
  let files = 0;
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    if (new URL(urls.get(e.requestId) ?? 'http://x/').pathname.startsWith('/console/')) {
      bytes += e.encodedDataLength;
      files++;
    }
  });
  await load();
  await cdp.detach();
  return { bytes, files };
}

async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
    return;
  }
  await buildConsole({ ifStale: true });
  await withBenchDatabase(async (url) => {
    const config = loadConfig({ DATABASE_URL: url, PORT: '0', JWT_SECRET: 'bench-secret', LOG_LEVEL: 'silent' });
    const service = await startService(config, { background: false });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    try {
      const base = `http://127.0.0.1:${service.port}`;
      const pool = service.ctx.db.pool;

      // 1. The first page: the login page, as a browser with an empty cache loads it.
      const fresh = await browser.newPage();
      const first = await consoleBytes(fresh, async () => {
        await fresh.goto(`${base}/console/`);
        await fresh.getByText('报工管理后台').first().waitFor();
        await fresh.waitForLoadState('networkidle');
      });
      await fresh.close();
      console.log(
        `first page (login) assets: ${kB(first.bytes)} transferred in ${first.files} files (brotli)   target ≤ 500 kB` +
          `   baseline, every asset of the console: ${kB(wholeConsoleBytes())}`,
      );

      // 2. A month's dashboard for 500 employees.
      await pool.query(
        `INSERT INTO personnel (phone, name, role) SELECT '138' || lpad(w::text, 8, '0'), '工人' || w, 'worker' FROM generate_series(1, $1::int) w`,
        [EMPLOYEES],
      );
      await pool.query(`INSERT INTO personnel (phone, name, role) VALUES ('13900000009', '李经理', 'manager')`);
      await pool.query(INSERT, [0, DAYS, FIRST_DAY, EMPLOYEES]);
      const events = await replayProjection(pool, service.ctx.store, dashboardProjection);
      const rows = Number((await pool.query(`SELECT count(*) AS n FROM dashboard_daily`)).rows[0].n);
      console.log(`data: ${fmt(events / 2)} approved reports (${EMPLOYEES} employees × ${DAYS} days), ${fmt(rows)} dashboard rows`);

      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      const link = await createConsoleLink(service.ctx, { phone: '13900000009' });
      await page.goto(`${base}/console/login#link=${link.ticket}`);
      await page.waitForURL(/\/console\/dashboard/);
      const dashboard = `${base}/console/dashboard?startDate=${FIRST_DAY}&endDate=${LAST_DAY}`;
      const inPage: number[] = [];
      const navigation: number[] = [];
      const apiOnly: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await page.goto(dashboard);
        const ready = page.locator('[data-test=dashboard][data-ready=true]');
        await ready.waitFor();
        navigation.push(performance.now() - t);
        inPage.push(Number(await ready.getAttribute('data-render-ms')));
        apiOnly.push(
          await page.evaluate(async (q) => {
            const h = { 'X-Console-Request': '1' };
            const t0 = performance.now();
            await Promise.all([
              fetch(`/api/dashboard/reports?${q}&page=1&pageSize=20`, { headers: h }).then((r) => r.json()),
              fetch(`/api/dashboard/summary?${q}`, { headers: h }).then((r) => r.json()),
            ]);
            return performance.now() - t0;
          }, `startDate=${FIRST_DAY}&endDate=${LAST_DAY}`),
        );
      }
      const ms = (v: number[]) => `median ${fmt(percentile(v, 50))} ms, max ${fmt(Math.max(...v))} ms`;
      console.log(`month's dashboard, ${EMPLOYEES} employees, query → table and both charts drawn: ${ms(inPage)}   target ≤ 1,000 ms`);
      console.log(`  navigation → drawn (page, scripts from cache, data, charts): ${ms(navigation)}`);
      console.log(`  baseline, the page's two API calls alone: ${ms(apiOnly)}`);
    } finally {
      await browser.close();
      await service.close();
    }
  });
}

export const consoleBench: BenchSuite = { name: 'console', run };
