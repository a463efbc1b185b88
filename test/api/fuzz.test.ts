/**
 * Property-based test of every declared route (fast-check): requests generated from each route's own
 * zod declarations (`z.toJSONSchema`, test/helpers/json-schema-arbitrary.ts) and from mutations of them — wrong
 * types, boundary and huge values, invalid Unicode, prototype names, malformed JSON, bodies that do not inflate,
 * broken percent-escapes, truncated and oversize multipart, wrong content types, headers over the limit — as every
 * role, with no token and with bad tokens. Required: never a 5xx; every error in the documented shape
 * `{"error": {"code", "message", "details"?}}` with a JSON content type; `/api/health` still answering. And, as
 * every test service's are (test/helpers/contract-guard.ts), each answer is checked against the API document: its
 * status, code, `details` and `requestId`.
 * Assertions are on status and shape only, never on wording.
 *
 * Seed: fixed (FUZZ_SEED unset, as in CI), `FUZZ_SEED=random` for a new one, or `FUZZ_SEED=<n>` to replay; the
 * seed is printed with any failure. `FUZZ_RUNS` sets the number of requests (default 8,000: 30–60 s here).
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.ts';
import type { AnyRoute } from '../../src/http/route.ts';
import { routes } from '../../src/http/routes/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { arbitraryOf, type JsonSchema } from '../helpers/json-schema-arbitrary.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { xlsxOf } from '../helpers/hostile-workbooks.ts';

const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 14_014);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8_000);

let app: TestApp;
const auth: Record<string, string | undefined> = {};

beforeAll(async () => {
  app = await startTestApp();
  for (const role of ROLES) auth[role] = `Bearer ${await app.login('13700000020', role, '模糊')}`;
  const removed = await app.login('13700000021', 'admin', '已删');
  await app.service.ctx.db.pool.query(`DELETE FROM personnel WHERE phone = '13700000021'`);
  Object.assign(auth, {
    none: undefined,
    removed: `Bearer ${removed}`,
    garbage: 'Bearer not.a.token',
    expired: `Bearer ${jwt.sign({ role: 'admin' }, 'test-secret', { subject: '13700000020', expiresIn: -60 })}`,
    otherKey: `Bearer ${jwt.sign({ role: 'admin' }, 'another-secret', { subject: '13700000020' })}`,
    algNone: `Bearer ${jwt.sign({ role: 'admin' }, '', { subject: '13700000020', algorithm: 'none' })}`,
    basic: 'Basic YWRtaW46YWRtaW4=',
    huge: `Bearer ${'a'.repeat(20_000)}`,
  });
  await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P1', '产品', 'JC-01', '落料', 12.5, 2304)`,
  );
}, 120_000);
afterAll(() => app?.close());

// ---- what requests are made of --------------------------------------------------------------------------------

const PROTO = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const HOSTILE_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.000001, 1e308, -1e308, 2 ** 53 + 1, '', ' ', 'a'.repeat(5_000), '\u0000', '\ud800', 'x\udfffy',
  '😀', '１２３', 'NaN', 'Infinity', '<script>', "' OR 1=1 --", '../../etc/passwd', '%E0%A4%A', '2026-02-30', '9999-99-99',
  ...PROTO, {}, [], [[[[[]]]]], JSON.parse('{"__proto__": {"admin": true}}'), { constructor: { prototype: 1 } }, ['admin'], [null],
];
const BAD_SEGMENTS = ['%E0%A4%A', '%', '%zz', '%ED%A0%80', '%C0%80', '%00', '%2e%2e', '..', ...PROTO, 'a'.repeat(3_000), '%F0%9F%98%80', '%20'];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/xml', 'multipart/form-data', 'application/x-www-form-urlencoded', ''];

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What was generated, for the failure report. */
  label: string;
}

const schemaOf = (s: z.ZodType | undefined): JsonSchema | undefined =>
  s ? (z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : undefined;

/** A value with one field replaced (or added) by a hostile value under a real or hostile key. */
const mutated = (valid: fc.Arbitrary<unknown>) =>
  fc.tuple(valid, fc.constantFrom(...HOSTILE_VALUES), fc.constantFrom(...PROTO, '', 'extra'), fc.nat(20)).map(([v, bad, badKey, i]) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return bad;
    const keys = Object.keys(v);
    const key = keys.length && i % 3 !== 0 ? keys[i % keys.length] : badKey;
    return Object.assign(JSON.parse(JSON.stringify(v)), JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(bad) ?? 'null'}}`));
  });

/** The path of `route` with its parameters from the schema, or broken. */
function pathArb(route: AnyRoute): fc.Arbitrary<string> {
  if (!route.path.includes(':')) return fc.constantFrom(route.path, route.path + '/', route.path.toUpperCase());
  const schema = schemaOf(route.params);
  const valid = (arbitraryOf(schema) as fc.Arbitrary<Record<string, unknown>>).map((p) =>
    route.path.replace(/:(\w+)/g, (_, k) => encodeURIComponent(String(p?.[k] ?? 'x'))),
  );
  const broken = fc.constantFrom(...BAD_SEGMENTS).map((seg) => route.path.replace(/:(\w+)/g, seg));
  return fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: broken, weight: 1 });
}

/** The query string (with its `?`) from the schema, mutated, or raw and broken. */
function queryArb(route: AnyRoute): fc.Arbitrary<string> {
  const schema = schemaOf(route.query);
  const encode = (v: unknown) =>
    v !== null && typeof v === 'object'
      ? new URLSearchParams(Object.entries(v).map(([k, x]): [string, string] => [k, typeof x === 'object' ? JSON.stringify(x) : String(x)])).toString()
      : '';
  const valid = arbitraryOf(schema ?? { type: 'object' }).map(encode);
  const raw = fc.constantFrom('page=-1&pageSize=abc', 'page=1&page=2', 'a[]=1&a[]=2', '__proto__=1&constructor=x', 'keyword=%E0%A4%A', 'deviceNo=%00', 'startDate=2026-13-45', '=&&=', 'x=' + 'y'.repeat(5_000));
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: mutated(arbitraryOf(schema ?? { type: 'object' })).map(encode), weight: 1 }, { arbitrary: raw, weight: 1 }).map((q) => (q ? `?${q}` : ''));
}

/** Body, content type and encoding: JSON from the schema, mutated, broken or oversize; multipart for uploads. */
function bodyArb(route: AnyRoute): fc.Arbitrary<{ headers: Record<string, string>; body?: Buffer }> {
  const none = fc.constant({ headers: {} as Record<string, string>, body: undefined });
  const json = (type = 'application/json') => (v: unknown) => ({ headers: { 'Content-Type': type }, body: Buffer.from(JSON.stringify(v) ?? 'null') });
  if (route.multipart) {
    const file = fc.oneof(fc.uint8Array({ maxLength: 2_000 }).map((b) => Buffer.from(b)), fc.constant(xlsxOf({})), fc.constant(xlsxOf({}).subarray(0, 900)));
    const form = fc.tuple(file, fc.constantFrom('file', 'other', '__proto__'), fc.boolean(), fc.constantFrom('a.xlsx', 'a"b.xlsx', '..\\x.xls')).map(([data, field, close, name]) => {
      const boundary = 'fuzzboundary';
      const parts = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n\r\n`), data];
      if (close) parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
      return { headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(parts) };
    });
    const oversize = fc.constant({ headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(50 * 1024 * 1024) }, body: Buffer.from('--x\r\n') });
    return fc.oneof({ arbitrary: form, weight: 4 }, oversize, none, arbitraryOf({ type: 'object' }).map(json()));
  }
  if (!route.body) return fc.oneof({ arbitrary: none, weight: 4 }, fc.jsonValue().map(json()));
  const schema = schemaOf(route.body);
  const valid = arbitraryOf(schema);
  const text = (s: string, type = 'application/json') => ({ headers: { 'Content-Type': type }, body: Buffer.from(s) });
  return fc.oneof(
    { arbitrary: valid.map(json()), weight: 4 },
    { arbitrary: mutated(valid).map(json()), weight: 4 },
    { arbitrary: valid.map((v) => JSON.stringify(v) ?? '').chain((s) => fc.nat(s.length).map((n) => text(s.slice(0, n)))), weight: 1 },
    { arbitrary: fc.tuple(valid, fc.constantFrom(...CONTENT_TYPES)).map(([v, t]) => json(t)(v)), weight: 1 },
    { arbitrary: fc.constantFrom('{"a":', '[', 'nul', '{"a": 1}}', '\u0000', '{"a": "\\ud800"}', '{"a": "\\u00"}', '{"__proto__": null}', '[' .repeat(5_000)).map((s) => text(s)), weight: 1 },
    {
      arbitrary: fc.tuple(valid, fc.constantFrom('gzip', 'br', 'deflate', 'compress', 'identity, gzip')).map(([v, enc]) => ({
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': enc },
        body: enc === 'gzip' ? gzipSync(JSON.stringify(v) ?? '').subarray(0, 12) : Buffer.from(JSON.stringify(v) ?? ''),
      })),
      weight: 1,
    },
    { arbitrary: fc.constant(text(`{"a": "${'x'.repeat(300 * 1024)}"}`)), weight: 1 },
  );
}

function requestArb(route: AnyRoute): fc.Arbitrary<FuzzRequest> {
  const otherMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant(route.method.toUpperCase()), weight: 9 }, otherMethod),
      path: pathArb(route),
      query: queryArb(route),
      who: fc.constantFrom(...Object.keys(auth)),
      body: bodyArb(route),
    })
    .map(({ method, path, query, who, body }) => {
      const headers: Record<string, string> = { ...body.headers };
      if (auth[who]) headers.Authorization = auth[who]!;
      const label = `${method} ${path.slice(0, 120)}${query.slice(0, 120)} as ${who} ${JSON.stringify(headers).slice(0, 200)} ${body.body?.subarray(0, 160).toString('latin1') ?? ''}`;
      // fast-check prints a counterexample through this method: the label, not the whole body.
      return { method, path: path + query, headers, body: body.body, label, [fc.toStringMethod]: () => label };
    });
}

// ---- the property ---------------------------------------------------------------------------------------------

function send(r: FuzzRequest): Promise<RawResponse> {
  const lines = [`${r.method} ${r.path} HTTP/1.1`, 'Host: fuzz'];
  for (const [k, v] of Object.entries(r.headers)) lines.push(`${k}: ${v}`);
  return rawRequest(app.service.port, lines.join('\r\n'), r.body);
}

/** Why `res` breaks the rules (module docstring), or undefined. */
function violation(method: string, res: RawResponse): string | undefined {
  if (res.status === 0) return `no answer (${res.socketError ?? 'closed'})`;
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 200)}`;
  if (res.status < 400 || method === 'HEAD') return undefined;
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) return `${res.status} with content type ${res.headers['content-type']}`;
  const e = res.json?.error;
  const keys = res.json && typeof res.json === 'object' ? Object.keys(res.json) : [];
  if (keys.join() !== 'error' || typeof e?.code !== 'string' || typeof e?.message !== 'string' || Object.keys(e).some((k) => !['code', 'message', 'details', 'requestId'].includes(k))) {
    return `${res.status} not in the error shape: ${res.text.slice(0, 200)}`;
  }
  return undefined;
}

it(`never answers 5xx, every error in the documented shape (${RUNS} requests, seed ${SEED})`, async () => {
  const property = fc.asyncProperty(fc.constantFrom(...routes).chain(requestArb), async (r) => {
    const res = await send(r);
    const why = violation(r.method, res);
    if (why) throw new Error(`${why}\n  request: ${r.label}`);
  });
  try {
    await fc.assert(property, { seed: SEED, numRuns: RUNS, endOnFailure: false });
  } catch (err) {
    throw new Error(`fuzz failed with FUZZ_SEED=${SEED}: ${(err as Error).message}`);
  }
  const health = await app.request('GET', '/api/health');
  expect(health.status).toBe(200);
}, 600_000);
