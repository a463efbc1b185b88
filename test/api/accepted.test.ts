/**
 * Request schemas say what the service accepts, no looser. For every operation, requests generated from
 * the document's own schemas (fast-check; each checked valid against the document with ajv) are sent, as a role
 * the operation allows, half of them naming real records (an open session, a pending report, a product). None may
 * be refused for its input: no 5xx, no 422 VALIDATION_FAILED and no refusal of a field by a command's own rule
 * (INVALID_QUANTITY, INVALID_REASON, INVALID_BREAK_MINUTES, PRODUCT_INVALID, PERSON_INVALID, NO_LINES,
 * TOO_MANY_LINES, a malformed date). Refusals the document cannot state are allowed: the state of records (404,
 * 409), rules across fields (outputQty = finished + defective, end ≥ start), the platform's answers, and the NUL
 * characters every operation refuses (INVALID_CHARACTERS). A fixed seed; `FUZZ_SEED=random` for a random one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_QTY } from '../../src/domain/report-line.ts';
import { routes } from '../../src/http/routes/index.ts';
import { toOpenApiPath } from '../../src/http/openapi.ts';
import type { Role } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { SchemaChecker } from '../helpers/contract.ts';
import { seedRecords } from '../helpers/records.ts';

const RUNS = 25;
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() : Number(process.env.FUZZ_SEED ?? 16);

/** Codes that refuse a request for its input; a request the document accepts must never get one. */
const INPUT_REFUSALS = new Set(['VALIDATION_FAILED', 'MALFORMED_JSON', 'INVALID_QUANTITY', 'INVALID_REASON', 'INVALID_BREAK_MINUTES', 'PRODUCT_INVALID', 'PERSON_INVALID', 'NO_LINES', 'TOO_MANY_LINES']);

let app: TestApp;
let doc: any;
const tokens = new Map<Role, string>();
const real: Record<string, unknown> = {};
const checker = new SchemaChecker();

beforeAll(async () => {
  app = await startTestApp();
  for (const role of ['worker', 'admin', 'manager'] as const) tokens.set(role, await app.login('13500000001', role, '测试'));
  doc = (await app.request('GET', '/api/openapi.json')).body;
  const records = await seedRecords(app, tokens.get('worker')!, '13500000002');
  Object.assign(real, records, { deviceNo: '冲床 01' });
});
afterAll(() => app.close());

type Schema = Record<string, any>;

/** An arbitrary of (roughly) the values `s` describes; every value is filtered through the document's check. */
function arb(s: Schema): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? (s.type ? undefined : s.oneOf);
  if (alts) return fc.oneof(...alts.map((a: Schema) => arb({ ...s, anyOf: undefined, oneOf: undefined, ...a })));
  switch (s.type) {
    case 'string': {
      if (s.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === 'uuid') return fc.uuid();
      const maxLength = Math.min(s.maxLength ?? 30, 30);
      const minLength = s.minLength ?? 0;
      const text = s.pattern ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '-', '冲', '床', '号', '\u00e9', '/', '%'), minLength, maxLength });
      return text.filter((v) => [...v].length >= minLength && [...v].length <= (s.maxLength ?? Infinity));
    }
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e9), max: Math.min(s.maximum ?? 1e6, 1e9) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arb(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object': {
      const props = Object.fromEntries(Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => [k, arb(v)]));
      return fc.record(props, { requiredKeys: s.required ?? [] });
    }
    default:
      return fc.jsonValue();
  }
}

/** `v` with, when `useReal`, the ids of real records in place of generated ones. */
function withReal(v: unknown, useReal: boolean): unknown {
  if (!useReal || !v || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => withReal(x, useReal));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k in real && x !== undefined ? real[k] : withReal(x, useReal)]));
}

/**
 * Rules across fields that the document cannot state, applied to a generated request so that it reaches the
 * rules it can: a line's outputQty, when given, is finished + defective (so within 0–10,000,000 itself); a date
 * range runs forward and spans at most 366 days; rates and coefficients have their decimals (stated in words).
 */
function acrossFields(v: any): any {
  if (!v || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(acrossFields);
  const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, acrossFields(x)]));
  if (typeof out.outputQty === 'number' && typeof out.finishedQty === 'number' && typeof out.defectiveQty === 'number') {
    out.outputQty = out.finishedQty + out.defectiveQty;
    if (out.outputQty > MAX_QTY) delete out.outputQty;
  }
  for (const rate of ['pieceRate', 'defectRate', 'materialDefectRate']) {
    if (typeof out[rate] === 'number') out[rate] = Math.round(out[rate] * 10_000) / 10_000 || 0;
  }
  // A coefficient (系数) has at most 2 decimals, stated in words as a rate's 4 are.
  if (typeof out.coefficient === 'number') out.coefficient = Math.min(Math.max(Math.round(out.coefficient * 100) / 100, 0.1), 9.99);
  if (typeof out.startDate === 'string' && typeof out.endDate === 'string' && out.startDate && out.endDate) {
    const [a, b] = [out.startDate, out.endDate].sort();
    const days = (Date.parse(b) - Date.parse(a)) / 86_400_000;
    Object.assign(out, { startDate: a, endDate: days > 365 ? a : b });
  }
  return out;
}

/** A request of operation `op` valid by the document: path params, query, body. */
function requestArb(op: any): fc.Arbitrary<{ params: Record<string, string>; query: Record<string, unknown>; body: unknown; useReal: boolean }> {
  const params: Record<string, fc.Arbitrary<unknown>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  let exploded: fc.Arbitrary<unknown> | undefined;
  for (const p of op.parameters ?? []) {
    const a = arb(p.schema).filter((v) => checker.problems(p.schema, v).length === 0);
    if (p.in === 'path') params[p.name] = a.map(String).filter((v) => v !== '' && v !== '.' && v !== '..');
    else if (p.schema.properties) exploded = a;
    else {
      query[p.name] = a;
      if (p.required) requiredQuery.push(p.name);
    }
  }
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const body = bodySchema ? arb(bodySchema).filter((v) => checker.problems(bodySchema, v).length === 0) : fc.constant(undefined);
  return fc.record({
    params: fc.record(params) as fc.Arbitrary<Record<string, string>>,
    query: (exploded ?? fc.record(query, { requiredKeys: requiredQuery })) as fc.Arbitrary<Record<string, unknown>>,
    body,
    useReal: fc.boolean(),
  });
}

it('accepts every request the document accepts (no refusal of its input, no 5xx)', async () => {
  const refused: string[] = [];
  let sent = 0;
  for (const route of routes) {
    const op = doc.paths[toOpenApiPath(route.path)][route.method];
    if (!op.parameters?.length && !op.requestBody?.content?.['application/json']) continue;
    const token = route.access === 'public' ? undefined : tokens.get(route.access === 'authenticated' ? 'worker' : route.access[0]);
    const result = await fc.check(
      fc.asyncProperty(requestArb(op), async (r) => {
        const params = withReal(r.params, r.useReal) as Record<string, unknown>;
        const query = acrossFields(withReal(r.query, r.useReal)) as Record<string, unknown>;
        const body = acrossFields(withReal(r.body, r.useReal));
        const path = route.path.replace(/:([A-Za-z]+)/g, (_m, k: string) => encodeURIComponent(String(params[k])));
        const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)])).toString();
        const res = await app.request(route.method.toUpperCase(), path + (search ? `?${search}` : ''), { token, body });
        sent++;
        const error = res.body?.error;
        if (process.env.SHOW_ANSWERS) console.log(`${route.method.toUpperCase()} ${route.path} ${res.status} ${error?.code ?? ''}`);
        const input = res.status >= 500 || INPUT_REFUSALS.has(error?.code) || (error?.code === 'INVALID_DATE_RANGE' && error.details?.field);
        return !input;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    if (result.failed) refused.push(`${route.method.toUpperCase()} ${route.path}: ${JSON.stringify(result.counterexample)} (seed ${SEED})`);
  }
  expect(refused).toEqual([]);
  expect(sent).toBeGreaterThan(RUNS * 20);
});
