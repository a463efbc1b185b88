/**
 * Every route is sent an invalid value of each of its fields (path, query and body, read from
 * the document with their Chinese labels), one field at a time, starting from the operation's own example. Every
 * answer is a 4xx whose `message` is Chinese with no Latin word except the values sent and codes; a 422
 * VALIDATION_FAILED names the field by its label (`title`) in the problem about it.
 * Also: the answer to an unknown device's code speaks to an administrator, and the audit trail has Chinese actions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/http/routes/index.ts';
import { toOpenApiPath } from '../../src/http/openapi.ts';
import type { Role } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { seedRecords } from '../helpers/records.ts';
import { SchemaChecker } from '../helpers/contract.ts';

const checker = new SchemaChecker();

let app: TestApp;
let doc: any;
const tokens = new Map<Role, string>();
/** The examples' ids replaced by real ones, so that the commands' own checks are reached, not only their 404s. */
const real = new Map<unknown, unknown>();

beforeAll(async () => {
  app = await startTestApp();
  for (const role of ['worker', 'admin', 'manager'] as const) tokens.set(role, await app.login('13700000001', role, '测试'));
  doc = (await app.request('GET', '/api/openapi.json')).body;
  // Worker 1 clocked out with the report window open (the submission's checks); another worker's report pending.
  const records = await seedRecords(app, tokens.get('worker')!, '13700000002');
  real.set('0b6f1f0e-3c1a-4d6e-9a57-2f1d2c3b4a59', records.sessionId);
  real.set('5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34', records.reportId);
  real.set(12, records.productId);
  real.set('12', String(records.productId)); // the product of a path (`/api/products/12/rates`)
});

/** `v` with every example id replaced by the real one (module docstring of `real`). */
const withRealIds = (v: unknown): any =>
  real.has(v) ? real.get(v) : Array.isArray(v) ? v.map(withRealIds) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withRealIds(x)])) : v;
afterAll(() => app.close());

type Schema = Record<string, any>;
/** A field of a request: where it is, its path, its schema and its Chinese label. */
interface Field {
  where: 'path' | 'query' | 'body';
  path: (string | number)[];
  schema: Schema;
  title: string;
}

/** The fields of an object schema, nested objects and the first item of arrays of objects included. */
function fieldsOf(where: Field['where'], s: Schema, prefix: (string | number)[] = []): Field[] {
  const out: Field[] = [];
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
    const path = [...prefix, name];
    out.push({ where, path, schema: prop, title: prop.title });
    if (prop.type === 'array' && prop.items?.properties) out.push(...fieldsOf(where, prop.items, [...path, 0]));
  }
  return out;
}

/** Every request field of operation `op`: path and query parameters (an exploded object's properties) and body. */
function requestFields(op: any): Field[] {
  const fields: Field[] = [];
  for (const p of op.parameters ?? []) {
    if (p.schema.properties) fields.push(...fieldsOf('query', p.schema));
    else fields.push({ where: p.in, path: [p.name], schema: p.schema, title: String(p.description).split('：')[0] });
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) fields.push(...fieldsOf('body', body));
  return fields;
}

/**
 * Values of `s` that the document refuses; `wire`: as text (query and path values). A union in a body (a rate:
 * decimal text or a number) takes its alternatives' values and `true`, keeping those no alternative accepts.
 */
function invalidValues(s: Schema, wire: boolean): unknown[] {
  if (s.anyOf && s.anyOf.length > 1 && !wire) {
    return [...new Set([...s.anyOf.flatMap((a: Schema) => invalidValues(a, wire)), true])].filter((v) => checker.problems(s, v).length > 0);
  }
  const out: unknown[] = [];
  const alt = s.anyOf?.[0] ?? s;
  if (s.enum || alt.enum) out.push('zzz');
  if (alt.format === 'date') out.push('2026-13-45');
  if (alt.format === 'uuid') out.push('not-an-id');
  if (alt.maxLength !== undefined) out.push('字'.repeat(alt.maxLength + 1));
  if (alt.minLength && !wire) out.push('');
  if (alt.pattern === '\\S') out.push('   ');
  if (alt.type === 'integer' || alt.type === 'number') {
    out.push(wire ? 'abc' : '12');
    if (alt.type === 'integer') out.push(wire ? '1.5' : 1.5);
    if (alt.minimum !== undefined && alt.minimum > -1e15) out.push(wire ? String(alt.minimum - 1) : alt.minimum - 1);
    if (alt.maximum !== undefined && alt.maximum < 1e15) out.push(wire ? String(alt.maximum + 1) : alt.maximum + 1);
  }
  if (!wire && alt.type === 'string') out.push(12345);
  if (alt.type === 'array') out.push(wire ? undefined : 'x', ...(alt.minItems ? [[]] : []));
  return out.filter((v) => v !== undefined);
}

/** Every string in `v` (the values sent), which a message may repeat. */
const stringsIn = (v: unknown): string[] =>
  typeof v === 'string' || typeof v === 'number' ? [String(v)] : v && typeof v === 'object' ? Object.values(v).flatMap(stringsIn) : [];

/** `message` with the values sent, codes (UPPER_SNAKE) and allowed enum values removed; what is left must be Chinese. */
function latinLeft(message: string, sent: string[], allowed: string[]): string[] {
  let rest = message;
  for (const v of [...sent, ...allowed].filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) rest = rest.split(v).join(' ');
  rest = rest.replace(/\b[A-Z][A-Z0-9_]+\b/g, ' ');
  return rest.match(/[A-Za-z]+/g) ?? [];
}

const setAt = (obj: any, path: (string | number)[], value: unknown) => {
  const copy = structuredClone(obj ?? {});
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] ??= typeof k === 'number' ? [] : {};
  o[path.at(-1)!] = value;
  return copy;
};

describe('every field of every route, sent an invalid value', () => {
  it('answers a 4xx with a Chinese message (no Latin word but values and codes), naming the field', async () => {
    const problems: string[] = [];
    let sent = 0;
    const samples: string[] = [];
    for (const route of routes) {
      const op = doc.paths[toOpenApiPath(route.path)][route.method];
      const example = withRealIds(route.example ?? {});
      const fields = requestFields(op);
      const token = route.access === 'public' ? undefined : tokens.get(route.access === 'authenticated' ? 'worker' : route.access[0]);
      for (const f of fields) {
        for (const bad of invalidValues(f.schema, f.where !== 'body')) {
          const params = f.where === 'path' ? { ...example.params, [f.path[0]]: String(bad) } : { ...example.params };
          const query = f.where === 'query' ? { ...example.query, [f.path[0]]: String(bad) } : { ...example.query };
          const reqBody = f.where === 'body' ? setAt(example.body, f.path, bad) : example.body;
          const url = route.path.replace(/:([A-Za-z]+)/g, (_m, k: string) => encodeURIComponent(params[k] ?? 'x')) + (Object.keys(query).length ? `?${new URLSearchParams(query as Record<string, string>)}` : '');
          const r = await app.request(route.method.toUpperCase(), url, { token, body: route.body ? reqBody : undefined });
          sent++;
          const at = `${route.method.toUpperCase()} ${url} ${f.path.join('.')}=${JSON.stringify(bad)} → ${r.status}`;
          if (r.status < 400 || r.status >= 500) {
            problems.push(`${at}: not a refusal`);
            continue;
          }
          const message: string = r.body?.error?.message ?? '';
          samples.push(`${at} ${r.body?.error?.code}: ${message}`);
          if (!/[\u4e00-\u9fff]/.test(message)) problems.push(`${at}: not Chinese: ${message}`);
          const allowed = f.schema.enum ?? f.schema.anyOf?.[0]?.enum ?? [];
          const latin = latinLeft(message, [...stringsIn(reqBody), ...stringsIn(query), ...stringsIn(params)], allowed.map(String));
          if (latin.length) problems.push(`${at}: Latin words ${latin.join(', ')} in "${message}"`);
          if (r.body.error.code === 'VALIDATION_FAILED') {
            const about = (r.body.error.details as { path: (string | number)[]; message: string }[]).filter((d) => d.path.join('.') === f.path.join('.'));
            if (about.length === 0) problems.push(`${at}: no problem reported about ${f.path.join('.')}: ${message}`);
            for (const d of about) if (f.title && !d.message.includes(f.title)) problems.push(`${at}: "${d.message}" does not name ${f.title}`);
          }
        }
      }
    }
    if (process.env.SHOW_MESSAGES) console.log(samples.join('\n'));
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(150);
  });

  it('gives every request field a Chinese label in the document', () => {
    const unlabelled: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        for (const f of requestFields(op)) if (!/^[\u4e00-\u9fff]/.test(f.title ?? '')) unlabelled.push(`${method.toUpperCase()} ${path} ${f.path.join('.')}`);
      }
    }
    expect(unlabelled).toEqual([]);
  });
});

describe('messages fit the person who gets them', () => {
  it('tells an administrator generating the code of an unknown device to add a product that uses it', async () => {
    const r = await app.request('POST', '/api/devices/NO-SUCH/qrcode', { token: tokens.get('admin') });
    expect([r.status, r.body.error.code]).toEqual([404, 'DEVICE_NOT_FOUND']);
    expect(r.body.error.message).toContain('NO-SUCH');
    expect(r.body.error.message).toContain('产品');
    expect(r.body.error.message).not.toContain('扫描');
  });

  it('a worker scanning an unknown code is told to check the code', async () => {
    const r = await app.request('GET', '/api/clock/state?deviceNo=NO-SUCH', { token: tokens.get('worker') });
    expect(r.body.error.message).toContain('设备码');
  });
});
