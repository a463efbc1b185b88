/**
 * The documents for each reader hold together: every relative link and image of README.md, CONTRIBUTING.md,
 * CHANGELOG.md and docs/*.md names a file that exists and, with `#anchor`, a heading of that file (anchors as GitHub
 * makes them, github-slugger); each reader finds their document from the README in one click; each document says
 * first who it is for; no document cites a tracker number; the README stays short (at most 150 lines).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const FILES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...DOCS];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The text outside fenced code blocks (links in code are not links). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors of a markdown file's headings, as GitHub makes them (repeats numbered -1, -2 …). */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const m of prose(read(file)).matchAll(/^#{1,6} +(.+?) *#*$/gm)) out.add(slugger.slug(m[1].replace(/[*`]/g, '')));
  return out;
}

/** Every relative link and image target `[text](target)` of `file`, without web addresses and mail links. */
function linksOf(file: string): string[] {
  return [...prose(read(file)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]).filter((t) => !/^(https?:|mailto:)/.test(t));
}

describe('the documents for each reader', () => {
  it.each(FILES)('%s: every relative link names a file that exists, and an anchor that exists', (file) => {
    const broken: string[] = [];
    for (const target of linksOf(file)) {
      const [path, anchor] = target.split('#');
      const resolved = path ? relative(ROOT, join(dirname(join(ROOT, file)), decodeURIComponent(path))) : file;
      if (!existsSync(join(ROOT, resolved))) {
        broken.push(`${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });

  it('the README links every document of docs/ (one click for each reader) and stays at most 150 lines', () => {
    const readme = read('README.md');
    for (const doc of DOCS) expect(linksOf('README.md'), doc).toContain(doc);
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it.each(DOCS)('%s says first who it is for', (doc) => {
    const opening = read(doc).split('\n').slice(1, 6).join('\n');
    expect(opening).toMatch(/^(For:|适用于：)/m);
  });

  it('no document cites a tracker number', () => {
    const cited = FILES.flatMap((f) => read(f).split('\n').map((line, i) => [f, i + 1, line] as const)).filter(([, , line]) => new RegExp(['issue', '#\\d'].join(' '), 'i').test(line));
    expect(cited.map(([f, n, line]) => `${f}:${n}: ${line}`)).toEqual([]);
  });
});
