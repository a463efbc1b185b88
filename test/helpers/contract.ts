/**
 * The API document as a contract: records HTTP exchanges and checks each against
 * `/api/openapi.json` with ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats.
 *
 * `recordFetch()` wraps `globalThis.fetch` so that every exchange a scenario makes through it is kept;
 * `contractDeviations(doc, exchanges)` lists every way an answer differs from the document: an undocumented
 * operation or status, a content type the operation does not declare, a body a 204 should not have, a JSON body
 * its schema refuses, a missing `X-Request-Id`, an error body whose `requestId` is not the header's; and, for
 * accepted requests, a body or query parameter the document would have refused (a document stricter than the
 * service).
 */
// The linter (@redocly/openapi-core) takes the name `ajv` for Redocly's fork; ajv itself is installed as `ajv2020`.
import { Ajv2020 } from 'ajv2020/dist/2020.js';
import addFormats from 'ajv-formats';

export interface Exchange {
  method: string;
  url: URL;
  /** The path as sent, when it differs from `url.pathname` (which resolves `..` segments the service never resolves). */
  path?: string;
  requestBody?: string;
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Starts recording every exchange made through `globalThis.fetch`; `stop()` restores it and returns them. */
export function recordFetch(): { exchanges: Exchange[]; stop(): Promise<Exchange[]> } {
  const real = globalThis.fetch;
  const exchanges: Exchange[] = [];
  const pending: Promise<void>[] = [];
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const res = await real(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const requestBody = typeof init?.body === 'string' ? init.body : undefined;
    const copy = res.clone();
    pending.push(
      copy.arrayBuffer().then((b) => {
        exchanges.push({ method, url, requestBody, status: res.status, headers: res.headers, body: Buffer.from(b) });
      }),
    );
    return res;
  };
  return {
    exchanges,
    async stop() {
      globalThis.fetch = real;
      await Promise.all(pending);
      return exchanges;
    },
  };
}

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, any>>; components: { responses: Record<string, any> } };

/** The operation of `doc` for `method` and `pathname` (a literal path before a templated one), with its path. */
export function operationOf(doc: Doc, method: string, pathname: string): { path: string; op: any } | undefined {
  const candidates = Object.keys(doc.paths)
    .filter((p) => doc.paths[p][method.toLowerCase()])
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')));
  for (const p of candidates) {
    const re = new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    if (re.test(pathname)) return { path: p, op: doc.paths[p][method.toLowerCase()] };
  }
  return undefined;
}

/** A validator of the schemas of one document (compiled once per schema). */
export class SchemaChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<Schema, ReturnType<Ajv2020['compile']>>();

  constructor() {
    // ajv-formats is typed against the fork's Ajv; only its format table is used (`keywords: false`).
    addFormats.default(this.ajv as unknown as Parameters<typeof addFormats.default>[0], { keywords: false });
    this.ajv.addFormat('binary', true);
  }

  /** The problems of `value` against `schema` (empty when valid). */
  problems(schema: Schema, value: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (!validate) this.compiled.set(schema, (validate = this.ajv.compile(schema)));
    if (validate(value)) return [];
    const errors = validate.errors ?? [];
    // Where no alternative of an anyOf/oneOf matched, its one line says so; the alternatives' own errors are noise.
    const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath);
    return errors
      .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf' || !unions.some((u) => e.instancePath.startsWith(u)))
      .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(value === undefined ? e.params : valueAt(value, e.instancePath)).slice(0, 200)}`);
  }
}

/** The part of `value` at JSON pointer `pointer`. */
function valueAt(value: unknown, pointer: string): unknown {
  let v: any = value;
  for (const k of pointer.split('/').slice(1)) v = v?.[k.replace(/~1/g, '/').replace(/~0/g, '~')];
  return v;
}

/** A query or path value (text on the wire) typed as its schema says. */
const typed = (schema: Schema, v: string): unknown =>
  schema.type === 'integer' || schema.type === 'number' ? (v.trim() === '' ? v : Number(v)) : v;

/** Every deviation of `exchanges` from `doc` (module docstring); empty when they all conform. */
export function contractDeviations(doc: Doc, exchanges: readonly Exchange[], checker = new SchemaChecker()): string[] {
  const out: string[] = [];
  for (const x of exchanges) {
    const path = x.path ?? x.url.pathname;
    const at = `${x.method} ${path}${x.url.search.slice(0, 200)} → ${x.status}`;
    const found = operationOf(doc, x.method, path);
    if (!found) {
      // Any other path or method: one of the document's answers to no operation, by its `x-status`.
      const response = Object.values(doc.components.responses).find((r) => r['x-status'] === x.status);
      if (!response) out.push(`${at}: no such operation in the document, and not one of its answers to no operation`);
      else out.push(...answerDeviations(at, response, x, checker));
      continue;
    }
    const { op } = found;
    const response = op.responses[String(x.status)];
    if (!response) {
      out.push(`${at}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`);
      continue;
    }
    out.push(...answerDeviations(at, response, x, checker));
    if (x.status < 300) {
      const media = op.requestBody?.content?.['application/json'];
      if (media && x.requestBody !== undefined) {
        for (const p of checker.problems(media.schema, JSON.parse(x.requestBody))) out.push(`${at}: accepted, but the document refuses the request body: ${p}`);
      }
      for (const param of op.parameters ?? []) {
        if (param.in !== 'query') continue;
        if (param.explode && param.schema.properties) {
          const given = Object.fromEntries([...x.url.searchParams].filter(([k]) => k in param.schema.properties).map(([k, v]) => [k, typed(param.schema.properties[k], v)]));
          for (const p of checker.problems(param.schema, given)) out.push(`${at}: accepted, but the document refuses the query: ${p}`);
          continue;
        }
        const v = x.url.searchParams.get(param.name);
        if (v === null) {
          if (param.required) out.push(`${at}: accepted without the required query parameter ${param.name}`);
          continue;
        }
        for (const p of checker.problems(param.schema, typed(param.schema, v))) out.push(`${at}: accepted, but the document refuses ${param.name}=${v}: ${p}`);
      }
    }
  }
  return out;
}

/**
 * How answer `x` differs from the document's `response` object: a missing X-Request-Id, a content type it does not
 * declare, a body where it has none, a JSON body its schema refuses, an error whose `requestId` is not the header's.
 */
function answerDeviations(at: string, response: any, x: Pick<Exchange, 'headers' | 'body' | 'status' | 'method'>, checker: SchemaChecker): string[] {
  const out: string[] = [];
  const requestId = x.headers.get('x-request-id');
  if (!requestId) out.push(`${at}: no X-Request-Id header`);
  const type = (x.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (x.method === 'HEAD') return out; // an answer to HEAD has no body, whatever its type says
  if (!response.content) {
    if (x.body.length) out.push(`${at}: a body (${type}) where the document says none`);
  } else if (!response.content[type]) {
    out.push(`${at}: content type "${type}" not documented (documented: ${Object.keys(response.content).join(', ')})`);
  } else if (type === 'application/json') {
    let body: any;
    try {
      body = JSON.parse(x.body.toString('utf8'));
    } catch {
      return [...out, `${at}: the body is not JSON`];
    }
    for (const p of checker.problems(response.content[type].schema, body)) out.push(`${at}: body ${p}`);
    if (x.status >= 400 && body?.error?.requestId !== requestId) out.push(`${at}: error.requestId ${body?.error?.requestId} is not the header's ${requestId}`);
  }
  return out;
}

/**
 * How an answer of the HTTP server's client-error handler (a request refused before it was read: no operation is
 * known) differs from the document: it may come on any operation, so every operation must document it.
 */
export function clientErrorDeviations(doc: Doc, x: Pick<Exchange, 'headers' | 'body' | 'status'>, checker = new SchemaChecker()): string[] {
  const out = new Set<string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const at = `client error on ${method.toUpperCase()} ${path} → ${x.status}`;
      const response = op.responses[String(x.status)];
      if (!response) out.add(`${at}: status not documented`);
      else for (const d of answerDeviations(at, response, { ...x, method: 'GET' }, checker)) out.add(d);
    }
  }
  return [...out];
}
