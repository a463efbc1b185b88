/**
 * Module hooks (node:module `register`, see scripts/register-ts.mjs) that run the service's TypeScript: a `.ts` file
 * is compiled by esbuild's `transform` (types stripped, the project's tsconfig.json compiler options, an inline
 * source map so that stack traces name the .ts lines) and loaded as an ES module; anything else loads as Node loads
 * it. Imports name their files with the `.ts` extension (tsconfig `allowImportingTsExtensions`), so Node's own
 * resolution finds them.
 *
 * Why not tsx, which the tests and scripts use: tsx compiles with esbuild's `keepNames`, which wraps every function
 * and class the code creates at run time in a call that redefines its `name`; on the request path (closures made per
 * request) that cost the service about 0.02 ms of CPU per request in the clock benchmark (bench/README.md "Loader").
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const tsconfig = JSON.parse(await readFile(new URL('../tsconfig.json', import.meta.url), 'utf8'));
const compilerOptions = tsconfig.compilerOptions ?? {};

/** Loads `.ts` files compiled (module docstring); hands anything else to the next loader. */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path, 'utf8');
  const out = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
    tsconfigRaw: { compilerOptions },
  });
  return { format: 'module', source: out.code, shortCircuit: true };
}
