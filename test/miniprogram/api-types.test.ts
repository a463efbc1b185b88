/**
 * A fresh checkout type-checks the mini-program after `npm install` alone: the install's `postinstall` generates
 * `miniprogram/api/openapi.d.ts` (web/scripts/api-types.ts `--if-stale`), and generates it again only when what it
 * is made from changed (the stamp on its first line). Run here into a temporary file, exactly as package.json says.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { generateApiTypesIfStale, inputsHash, typesAreFresh } from '../../web/scripts/api-types.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const dir = mkdtempSync(join(tmpdir(), 'api-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("npm install's postinstall writes the mini-program's API types; again only when stale", async () => {
  // The step of postinstall that names the mini-program's types, run with a temporary target.
  const step = pkg.scripts.postinstall.split('&&').map((s) => s.trim()).find((s) => s.includes('miniprogram/api/openapi.d.ts'));
  expect(step, `postinstall: ${pkg.scripts.postinstall}`).toBeDefined();
  const target = join(dir, 'openapi.d.ts');
  const [cmd, ...args] = step!.replace('miniprogram/api/openapi.d.ts', target).split(/\s+/);
  const out = execFileSync(join(ROOT, 'node_modules/.bin', cmd), args, { cwd: ROOT, encoding: 'utf8' });
  expect(out).toContain('API types written');

  const text = readFileSync(target, 'utf8');
  expect(text.split('\n', 1)[0]).toBe(`/* inputs: ${inputsHash()} */`);
  expect(text).toContain('"/api/clock/start"');
  expect(text).toContain('export type Answer<');
  expect(typesAreFresh(target)).toBe(true);

  // Fresh: nothing written (the same file, untouched).
  const before = statSync(target).mtimeMs;
  expect(await generateApiTypesIfStale(target)).toBe('fresh');
  expect(statSync(target).mtimeMs).toBe(before);
  expect(readFileSync(target, 'utf8')).toBe(text);

  // Made from other inputs (an older checkout's stamp): stale, written again.
  writeFileSync(target, text.replace(/^\/\* inputs: [0-9a-f]+ \*\//, `/* inputs: ${'0'.repeat(64)} */`));
  expect(typesAreFresh(target)).toBe(false);
  expect(await generateApiTypesIfStale(target)).toBe('written');
  expect(readFileSync(target, 'utf8')).toBe(text);
});

it('the generated types are not committed', () => {
  const ignored = execFileSync('git', ['check-ignore', 'miniprogram/api/openapi.d.ts', 'web/src/api/openapi.d.ts'], { cwd: ROOT, encoding: 'utf8' });
  expect(ignored.trim().split('\n')).toEqual(['miniprogram/api/openapi.d.ts', 'web/src/api/openapi.d.ts']);
});
