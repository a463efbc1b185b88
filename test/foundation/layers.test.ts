/**
 * The shape of `src/`: no import cycle (type imports and dynamic imports included), and layers that
 * point one way — http → commands / queries → projections → events → db, with the neutral modules (shared
 * shapes, domain rules, clock, time, errors, logger) below everything. Commands and queries never import each
 * other; only the edge and the runners (main, cli, cluster, jobs, app) import `src/http`; the layers and the
 * neutral modules never import the composition root (context, app). Feature modules outside the layers (auth,
 * people, products, platform, imports, …) are application services wired by the composition root. Imports are read
 * with TypeScript's own pre-processor, so every `import`, `import type`, `export … from` and `import()` counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = normalize(join(import.meta.dirname, '../../src'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each file of src/ (relative path) → the files of src/ it imports (relative paths). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const imported = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(SRC, normalize(join(dirname(file), name))));
    graph.set(relative(SRC, file), imported);
  }
  return graph;
}

/** The area of a file: its top folder under src/, or the file's own name for files at the top. */
const areaOf = (file: string) => file.split('/')[0].replace(/\.ts$/, '');

/**
 * The ranked layers, lowest first: a file may import files of its own area, of a lower layer, or neutral ones.
 * Areas not listed (auth, people, products, platform, …) are feature modules; the rules below still apply to them.
 */
const LAYERS: Record<string, number> = { db: 0, events: 1, projections: 2, commands: 3, queries: 3, http: 4 };
/** Modules every layer may import, which import nothing ranked above db themselves. */
const NEUTRAL = new Set(['shared', 'domain', 'clock', 'time', 'errors', 'logger']);
/** The edge and the runners: the only importers of src/http. */
const RUNNERS = new Set(['http', 'app', 'main', 'cli', 'cluster', 'jobs']);
/** The composition root: the layers and the neutral modules never import it. */
const ROOT = new Set(['context', 'app']);

/** Why importing area `b` from area `a` breaks the rules, or undefined when it does not. */
function brokenRule(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  if (b === 'http' && !RUNNERS.has(a)) return 'only the edge and the runners import http';
  if (ROOT.has(b) && (a in LAYERS || NEUTRAL.has(a)) && a !== 'http') return `the layers never import the composition root (${b})`;
  if (NEUTRAL.has(a) && !NEUTRAL.has(b)) return 'a neutral module imports only neutral ones';
  if (a in LAYERS && b in LAYERS && LAYERS[b] >= LAYERS[a]) {
    return LAYERS[b] === LAYERS[a] ? `${a} and ${b} are peers: neither imports the other` : `${a} is below ${b}`;
  }
  return undefined;
}

/** The import edges of `graph` that break the layer rules, as `from → to (why)`. */
export function layerViolations(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets.flatMap((to) => {
      const why = brokenRule(areaOf(from), areaOf(to));
      return why ? [`${from} → ${to} (${why})`] : [];
    }),
  );
}

/** The cycles of `graph` (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

describe('the imports of src/', () => {
  const graph = importGraph();

  it('reads every file and finds its imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('commands/command.ts')).toContain('events/store.ts');
  });

  it('have no cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('point one way: http → commands / queries → projections → events → db', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    const bad = new Map<string, string[]>([
      ['events/store.ts', ['projections/runner.ts', 'http/route.ts']],
      ['queries/clock-state.ts', ['commands/clock/decider.ts', 'context.ts']],
      ['domain/clock.ts', ['db/transaction.ts']],
      ['projections/runner.ts', ['events/store.ts']],
    ]);
    expect(layerViolations(bad)).toEqual([
      'events/store.ts → projections/runner.ts (events is below projections)',
      'events/store.ts → http/route.ts (only the edge and the runners import http)',
      'queries/clock-state.ts → commands/clock/decider.ts (queries and commands are peers: neither imports the other)',
      'queries/clock-state.ts → context.ts (the layers never import the composition root (context))',
      'domain/clock.ts → db/transaction.ts (a neutral module imports only neutral ones)',
    ]);
    expect(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']], ['c.ts', ['a.ts']]]))).toEqual([['a.ts', 'b.ts']]);
  });
});
