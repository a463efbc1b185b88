/**
 * The browser tests need Chromium and a font with Chinese glyphs. Where fontconfig finds no such font
 * (here: a fontconfig file that lists no font directory, as on a laptop or build server without one), they are
 * skipped outside CI with one line saying what to install, and fail on CI (`CI` set) at launch with that line.
 * Checked in a child process, since test/console/browser.ts looks once, when it is loaded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'no-fonts-'));
const NO_FONTS = join(dir, 'fonts.conf');
writeFileSync(NO_FONTS, '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig></fontconfig>\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BROWSER = new URL('./browser.ts', import.meta.url).href;

/** What browser.ts says in a process with `env`: `{missing, skip, launch}` (launch: the error of launchBrowser, if any). */
function inChild(env: Record<string, string | undefined>): { missing: string | null; skip: boolean; launch: string | null } {
  const script = `
    const b = await import(${JSON.stringify(BROWSER)});
    console.warn = () => {};
    const skip = b.skipBrowserTests('x.test.ts');
    const launch = b.browserMissing ? await b.launchBrowser().then(() => null, (e) => e.message) : null;
    process.stdout.write(JSON.stringify({ missing: b.browserMissing ?? null, skip, launch }));`;
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: childEnv, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out);
}

it('no font with Chinese glyphs: skipped outside CI, saying to install fonts-wqy-microhei; on CI a failure at launch', () => {
  // CHROMIUM_PATH names a file that exists, so that the font is what is missing, with or without Chromium here.
  const local = inChild({ FONTCONFIG_FILE: NO_FONTS, CI: undefined, CHROMIUM_PATH: process.execPath });
  expect(local.missing).toMatch(/fonts-wqy-microhei/);
  expect(local.missing).toMatch(/中文字体/);
  expect(local.skip).toBe(true);
  const ci = inChild({ FONTCONFIG_FILE: NO_FONTS, CI: 'true', CHROMIUM_PATH: process.execPath });
  expect(ci.skip).toBe(false);
  expect(ci.launch).toBe(local.missing);
});

it('fontconfig not found at all: said the same way', () => {
  const local = inChild({ PATH: dir, CI: undefined, CHROMIUM_PATH: process.execPath });
  expect(local.missing).toMatch(/fontconfig/);
  expect(local.skip).toBe(true);
});
