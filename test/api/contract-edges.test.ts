/**
 * The contract test's second half (the first: contract.test.ts, a working day and a tour): the answers
 * made outside a route's normal path, each produced on purpose and checked against `/api/openapi.json` with the
 * same checker (test/helpers/contract.ts: documented status, code among the operation's, `details` in its schema,
 * `requestId` equal to the X-Request-Id header). Requests go over a raw socket where a client library would refuse
 * to send them.
 *
 * 1. Every answer of the HTTP layer (src/http/common-errors.ts) on every operation it applies to. `PROVOKE` has one
 *    entry per code of that table (typed by it: a new entry fails the type check until it has one): how to provoke
 *    it on an operation. The census then requires each code to have been answered.
 * 2. The sign-in rate limits: every operation whose document lists TOO_MANY_LOGIN_ATTEMPTS is driven over its limit
 *    (`RATE_LIMITED`, by operation: a newly limited operation fails until it has a driver) and answers 429 with
 *    Retry-After and `details.retryAfterSeconds`.
 * 3. The upload and import limits: every code the import operations document beyond the common ones is provoked on
 *    each of them (`UPLOAD_REFUSALS`, by code), with files of test/helpers/hostile-workbooks.ts, and
 *    SPREADSHEET_TOO_LARGE once per limit its `details` can name.
 * 4. Paths and methods that are no operation: the document's answers to no operation (`components.responses`).
 *
 * Beside these, every test's service checks its own answers against the document as they go
 * (test/helpers/contract-guard.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/auth/roles.ts';
import { COMMON, type CommonCode } from '../../src/http/common-errors.ts';
import { CONTROL_HEADER, openControlChannel, readControlFile } from '../../src/http/control-channel.ts';
import { toOpenApiPath } from '../../src/http/openapi.ts';
import type { AnyRoute } from '../../src/http/route.ts';
import { routes } from '../../src/http/routes/index.ts';
import { closeParsePool, PARSE_TIME_LIMIT_MS, setParseTimeLimit } from '../../src/imports/parse-pool.ts';
import type { AsyncConsumer } from '../../src/projections/consumer.ts';
import { submitReport } from '../review/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { SchemaChecker, contractDeviations, type Exchange } from '../helpers/contract.ts';
import { HOSTILE_FILES, rowXml, sheetXml, xlsxOf, zipBomb } from '../helpers/hostile-workbooks.ts';
import { multipart, rawRequest, type RawResponse } from '../helpers/raw-http.ts';

let app: TestApp;
let doc: any;
const checker = new SchemaChecker();
const tokens = {} as Record<Role, string>;
let revoked: Record<Role, string>;
let controlSecret = '';
let knownDevice = '';
let dir: string;
/** Every answer of this file, checked at the end against the document, and the (operation, status, code) seen. */
const exchanges: Exchange[] = [];
const seen = new Set<string>();
/** The service's side of each connection, by the client's port (to end a request as Node's timeout does). */
const serverSockets = new Map<number, Socket>();

beforeAll(async () => {
  // PGLITE_DIR only names where the console-link control file goes (the database is the harness's).
  dir = mkdtempSync(join(tmpdir(), 'contract-edges-'));
  // READ_MODEL_WAIT_SECONDS 1: READ_MODEL_BEHIND is provoked on each operation that reads an async read model (a
  // projection that fails for the whole wait), one second each.
  app = await startTestApp({ PGLITE_DIR: join(dir, 'pglite'), READ_MODEL_WAIT_SECONDS: '1' }, '2026-03-02T08:00:00+08:00');
  for (const role of ROLES) tokens[role] = await app.login('13700000031', role, '边界');
  revoked = {} as Record<Role, string>;
  for (const role of ROLES) revoked[role] = await app.login('13700000032', role, '已删');
  await app.service.ctx.db.pool.query(`DELETE FROM personnel WHERE phone = '13700000032'`);
  // The devices of the examples exist, so that a refusal is the one provoked, not a device that is unknown.
  const devices = new Set(routes.flatMap((r) => [(r.example?.body as { deviceNo?: string } | undefined)?.deviceNo, r.example?.query?.deviceNo]).filter(Boolean));
  knownDevice = [...devices][0]!;
  for (const [i, device] of [...devices].entries()) {
    await app.service.ctx.db.pool.query(
      `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload) VALUES ('P', $1, $2, '落料', 20, 1440)`,
      [`产品${i}`, device],
    );
  }
  // The console link's local secret, sent with every request (other routes ignore the header).
  openControlChannel(app.config, app.service.port);
  controlSecret = readControlFile(app.config)?.secret ?? '';
  doc = (await app.request('GET', '/api/openapi.json')).body;
  app.service.server.on('connection', (s: Socket) => serverSockets.set(s.remotePort ?? 0, s));
});
afterAll(async () => {
  await app?.close();
  await closeParsePool();
  rmSync(dir, { recursive: true, force: true });
});

// ---- sending and recording -------------------------------------------------------------------------------------

interface Raw {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  token?: string;
}

/** Sends `r` over a raw socket, records the answer as an exchange and the (operation, status, code) it carries. */
async function send(r: Raw): Promise<RawResponse> {
  const lines = [`${r.method} ${r.path} HTTP/1.1`, 'Host: edges', `${CONTROL_HEADER}: ${controlSecret}`];
  if (r.token) lines.push(`Authorization: Bearer ${r.token}`);
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  const res = await rawRequest(app.service.port, lines.join('\r\n'), r.body);
  record(r.method, r.path, res);
  return res;
}

function record(method: string, path: string, res: RawResponse): void {
  const url = new URL(path, app.url);
  exchanges.push({ method, url, path: path.split('?')[0], status: res.status, headers: new Headers(res.headers), body: Buffer.from(res.text) });
  const code = res.json?.error?.code;
  const op = routes.find((x) => x.method.toUpperCase() === method && new RegExp(`^${x.path.replace(/:\w+/g, '[^/]+')}$`).test(url.pathname));
  if (op && code) seen.add(`${method} ${toOpenApiPath(op.path)} ${res.status} ${code}`);
}

/** The deviations of the answers recorded since `from` (an index of `exchanges`). */
const deviationsSince = (from: number) => contractDeviations(doc, exchanges.slice(from), checker);

/** The route's path with its example's parameters (or `x`). */
const pathOf = (r: AnyRoute) => r.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(r.example?.params?.[name] ?? 'x'));
const queryOf = (r: AnyRoute) => (r.example?.query ? `?${new URLSearchParams(r.example.query)}` : '');
/** A token of a role the route allows (undefined for public routes). */
const tokenFor = (r: AnyRoute) => (r.access === 'public' ? undefined : tokens[r.access === 'authenticated' ? 'worker' : r.access[0]]);
const hasJsonBody = (r: AnyRoute) => r.body !== undefined && !r.multipart;
const json = { 'Content-Type': 'application/json' };

/**
 * The route's own example request (as the document shows it), with a token of a role it allows; a device named by
 * its key is named by a number that exists instead (an unknown device is refused before the person is checked).
 */
function example(r: AnyRoute, over: Partial<Raw> = {}): Raw {
  const given = r.example?.body as Record<string, unknown> | undefined;
  const body = hasJsonBody(r) ? JSON.stringify(given && 'deviceKey' in given ? { deviceNo: knownDevice } : (given ?? {})) : undefined;
  return { method: r.method.toUpperCase(), path: pathOf(r) + queryOf(r), headers: body ? json : {}, body, token: tokenFor(r), ...over };
}

/**
 * A request ended the way Node ends one whose headers take too long: its `clientError` with ERR_HTTP_REQUEST_TIMEOUT
 * on the service's side of the connection (what the server's periodic timeout check emits after `requestTimeout`).
 */
async function timedOut(r: AnyRoute): Promise<RawResponse> {
  const path = pathOf(r);
  const res = await new Promise<RawResponse>((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(app.service.port, '127.0.0.1', () => {
      socket.write(`${r.method.toUpperCase()} ${path} HTTP/1.1\r\nHost: edges\r\nX-Slow: `, () => {
        const wait = setInterval(() => {
          const server = serverSockets.get(socket.localPort ?? -1);
          if (!server) return;
          clearInterval(wait);
          app.service.server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), server);
        }, 5);
      });
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head, text = ''] = raw.split('\r\n\r\n');
      const headers: Record<string, string> = {};
      for (const l of head.split('\r\n').slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers, text, json: text ? JSON.parse(text) : undefined });
    });
  });
  record(r.method.toUpperCase(), path, res);
  return res;
}

// ---- 1. the HTTP layer's answers on every operation ------------------------------------------------------------

/** A query or path parameter of the operation and a value its document refuses, or undefined. */
function invalidParameter(r: AnyRoute): { where: 'path' | 'query'; name: string; value: string } | undefined {
  const op = doc.paths[toOpenApiPath(r.path)][r.method];
  for (const p of op.parameters ?? []) {
    const schemas: [string, any][] = p.schema.properties ? Object.entries(p.schema.properties) : [[p.name, p.schema]];
    for (const [name, s] of schemas) {
      const alt = s.anyOf?.[0] ?? s;
      // Dates are left out: where they are rules of a command, they answer that command's own code (json-schema.ts).
      const value = alt.enum ? 'zzz' : alt.type === 'integer' ? 'abc' : alt.maxLength !== undefined ? 'x'.repeat(alt.maxLength + 1) : undefined;
      if (value !== undefined) return { where: p.in, name, value };
    }
  }
  return undefined;
}

/** How to provoke a common error on route `r` → its answer, or undefined where the route cannot give it. */
type Provoker = (r: AnyRoute) => Promise<RawResponse> | undefined;

/** A role the route does not allow, if any. */
const otherRole = (r: AnyRoute) => (Array.isArray(r.access) ? ROLES.find((x) => !r.access.includes(x)) : undefined);

const PROVOKE: Record<CommonCode, Provoker> = {
  MALFORMED_JSON: (r) => (hasJsonBody(r) ? send(example(r, { body: '{"a":' })) : undefined),
  MALFORMED_REQUEST: (r) => send(example(r, { headers: { ...example(r).headers, 'Bad Header': 'x' } })),
  REQUEST_TIMEOUT: (r) => timedOut(r),
  HEADERS_TOO_LARGE: (r) => send(example(r, { headers: { ...example(r).headers, 'X-Big': 'a'.repeat(20_000) } })),
  PAYLOAD_TOO_LARGE: (r) => (hasJsonBody(r) ? send(example(r, { body: JSON.stringify({ x: 'x'.repeat(300_000) }) })) : undefined),
  UNSUPPORTED_ENCODING: (r) => (hasJsonBody(r) ? send(example(r, { headers: { 'Content-Type': 'application/json; charset=latin1' } })) : undefined),
  UNAUTHORIZED: (r) => (r.access === 'public' ? undefined : send(example(r, { token: undefined }))),
  INVALID_TOKEN: (r) => (r.access === 'public' ? undefined : send(example(r, { token: 'not.a.token' }))),
  ROLE_REVOKED: (r) => (r.access === 'public' ? undefined : send(example(r, { token: revoked[r.access === 'authenticated' ? 'worker' : r.access[0]] }))),
  FORBIDDEN: (r) => {
    const role = otherRole(r);
    return role ? send(example(r, { token: tokens[role] })) : undefined;
  },
  VALIDATION_FAILED: (r) => {
    if (hasJsonBody(r)) return send(example(r, { body: '[]' }));
    const bad = invalidParameter(r);
    if (!bad) return undefined;
    const path = bad.where === 'path' ? r.path.replace(`:${bad.name}`, encodeURIComponent(bad.value)) : pathOf(r);
    const query = bad.where === 'query' ? `?${new URLSearchParams({ ...(r.example?.query ?? {}), [bad.name]: bad.value })}` : queryOf(r);
    return send(example(r, { path: path.replace(/:(\w+)/g, 'x') + query }));
  },
  INVALID_CHARACTERS: (r) => send(example(r, { path: `${pathOf(r)}?${queryOf(r).slice(1)}${queryOf(r) ? '&' : ''}edge=%00` })),
  // A lost database: every statement fails as a connection that is gone does (src/db/failures.ts).
  DATABASE_UNAVAILABLE: (r) => (r.noDatabase ? undefined : withBrokenDatabase(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), () => send(example(r)))),
  // A fault no input causes: a statement failing with an error that is not the database's.
  INTERNAL_ERROR: (r) => (r.noDatabase ? undefined : withBrokenDatabase(new TypeError('a fault of the service'), () => send(example(r)))),
  // A read model that cannot take in an event of its types committed before the request: its projection fails.
  READ_MODEL_BEHIND: (r) => (r.readModels?.length ? withReadModelsFailing(r.readModels, () => send(example(r))) : undefined),
};

/**
 * Runs `fn` with an event every model of `names` waits for not taken in yet (the approval of a report of 2020, out of
 * every other test's way) and those models' projections failing.
 */
async function withReadModelsFailing<T>(names: readonly string[], fn: () => Promise<T>): Promise<T> {
  behindOnce ??= (async () => {
    const { reportId } = await submitReport(app.service.ctx, { reportDate: '2020-01-15' });
    const approved = await app.request('POST', `/api/reviews/${reportId}/approve`, { token: tokens.admin, body: {} });
    if (approved.status !== 200) throw new Error(`the approval that the read models wait for: ${approved.status}`);
  })();
  await behindOnce;
  const failing = app.service.ctx.consumers.filter((c) => names.includes(c.name)) as { handle: AsyncConsumer['handle'] }[];
  const saved = failing.map((c) => c.handle);
  for (const c of failing) c.handle = () => Promise.reject(new Error('a projection that fails'));
  try {
    return await fn();
  } finally {
    failing.forEach((c, i) => (c.handle = saved[i]));
  }
}
let behindOnce: Promise<unknown> | undefined;

/** Runs `fn` with every statement of the service's database failing with `err` (the connection pool's entry points). */
async function withBrokenDatabase<T>(err: Error, fn: () => Promise<T>): Promise<T> {
  const pool = app.service.ctx.db.pool as unknown as Record<'query' | 'connect', unknown>;
  const saved = { query: pool.query, connect: pool.connect };
  pool.query = () => Promise.reject(err);
  pool.connect = () => Promise.reject(err);
  try {
    return await fn();
  } finally {
    Object.assign(pool, saved);
  }
}

describe("1. the HTTP layer's answers (common-errors.ts), on every operation they apply to", () => {
  it.each(Object.keys(COMMON) as CommonCode[])('%s', async (code) => {
    const provoke = PROVOKE[code];
    const from = exchanges.length;
    const answered: string[] = [];
    for (const r of routes.filter((x) => COMMON[code].appliesTo(x))) {
      const res = await provoke(r);
      if (!res) continue;
      answered.push(`${r.method.toUpperCase()} ${r.path}: ${res.status} ${res.json?.error?.code}`);
      expect([res.status, res.json?.error?.code], `${r.method.toUpperCase()} ${r.path}`).toEqual([COMMON[code].status, code]);
    }
    expect(answered.length, `${code} was provoked on no operation`).toBeGreaterThan(0);
    expect(deviationsSince(from)).toEqual([]);
  });
});

// ---- 2. the sign-in rate limits -----------------------------------------------------------------------------------

/** A fresh window of every login limit: the limits count per 10 minutes of the service clock. */
const nextWindow = () => app.clock.advance(11 * 60_000);

/** Sends `r()` until it answers 429 (at most `max` times) → that answer. */
async function until429(max: number, r: (i: number) => Raw): Promise<RawResponse> {
  for (let i = 0; i < max; i++) {
    const res = await send(r(i));
    if (res.status === 429) return res;
  }
  throw new Error(`no 429 after ${max} requests`);
}

/** How to drive each rate-limited operation over its limit (README "Sign-in"), by operation. */
const RATE_LIMITED: Record<string, () => Promise<RawResponse>> = {
  // 20 attempts per openid.
  'POST /api/auth/platform-login': () =>
    until429(30, (i) => ({ method: 'POST', path: '/api/auth/platform-login', headers: json, body: JSON.stringify({ code: `sim:edges#${i}`, phoneCode: `sim:13911119999#${i}` }) })),
  // Forged tickets are refused attempts of the IP: 100.
  'POST /api/auth/platform-login/complete': () =>
    until429(120, () => ({ method: 'POST', path: '/api/auth/platform-login/complete', headers: json, body: JSON.stringify({ ticket: 'forged', phone: '13911119999' }) })),
  // 60 sign-in codes per IP.
  'POST /api/auth/web-login': () => until429(80, () => ({ method: 'POST', path: '/api/auth/web-login' })),
  // Unknown tickets are refused attempts of the IP: 100.
  'GET /api/auth/web-login/{ticket}': () => until429(120, (i) => ({ method: 'GET', path: `/api/auth/web-login/unknown-${i}` })),
  // 20 confirmations per person.
  'POST /api/auth/web-login/confirm': () =>
    until429(30, () => ({ method: 'POST', path: '/api/auth/web-login/confirm', headers: json, body: JSON.stringify({ key: 'no-such-key' }), token: tokens.admin })),
};

describe('2. the sign-in rate limits', () => {
  const limited = () =>
    Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.entries<any>(ops)
        .filter(([, op]) => JSON.stringify(op.responses['429'] ?? {}).includes('TOO_MANY_LOGIN_ATTEMPTS'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );

  it('every operation that documents TOO_MANY_LOGIN_ATTEMPTS has a driver here', () => {
    expect(limited().sort()).toEqual(Object.keys(RATE_LIMITED).sort());
  });

  it.each(Object.keys(RATE_LIMITED))('%s over its limit: 429 with Retry-After and details.retryAfterSeconds, as documented', async (op) => {
    nextWindow();
    const from = exchanges.length;
    const res = await RATE_LIMITED[op]();
    expect(res.json.error.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(res.json.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(res.headers['retry-after']).toBe(String(res.json.error.details.retryAfterSeconds));
    expect(deviationsSince(from)).toEqual([]);
    nextWindow();
  });
});

// ---- 3. the upload and import limits ------------------------------------------------------------------------------

const HEADERS: Record<string, string[]> = {
  '/api/products/import': ['项目号', '产品名称', '使用设备', '工序', '标准节拍'],
  '/api/people/import': ['手机号', '姓名', '角色'],
  '/api/work-orders/import': ['工单号', '项目号', '产品名称', '计划数量', '工序路线'],
};
const hostile = (fileName: string) => HOSTILE_FILES.find((f) => f.fileName === fileName)!.build();
/** A one-sheet workbook of `rows` (XML of rows) with `before`/`after` the sheet data. */
const sheet = (rows: string, opts: { before?: string; after?: string } = {}) => xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(rows, opts) });
/** `n` data rows under the header of `path`'s list. */
const rowsFor = (path: string, n: number) => Array.from({ length: n }, (_, i) => rowXml(i + 2, HEADERS[path].map((h) => `${h}${i}`))).join('');

/** A multipart upload of `data` named `fileName` to `path`, as an administrator. */
const uploadTo = (path: string, data: Uint8Array, fileName = 'list.xlsx', field = 'file') => {
  const { contentType, body } = multipart(field, fileName, data);
  return send({ method: 'POST', path, headers: { 'Content-Type': contentType }, body, token: tokens.admin });
};

/** How to provoke each refusal of an import upload (src/imports, src/spreadsheet), for the route at `path`. */
const UPLOAD_REFUSALS: Record<string, ((path: string) => Promise<RawResponse>)[]> = {
  NOT_MULTIPART: [(path) => send({ method: 'POST', path, headers: { 'Content-Type': 'text/plain' }, body: 'x', token: tokens.admin })],
  FILE_REQUIRED: [(path) => uploadTo(path, xlsxOf({}), 'list.xlsx', 'other')],
  MALFORMED_UPLOAD: [
    (path) => {
      const { contentType, body } = multipart('file', 'list.xlsx', Buffer.from('PK\x03\x04 half'), { close: false });
      return send({ method: 'POST', path, headers: { 'Content-Type': contentType }, body, token: tokens.admin });
    },
  ],
  FILE_TOO_LARGE: [(path) => uploadTo(path, Buffer.alloc(10 * 1024 * 1024 + 1, 1))],
  EMPTY_FILE: [(path) => uploadTo(path, Buffer.alloc(0))],
  NOT_A_SPREADSHEET: [(path) => uploadTo(path, hostile('list.xlsx'))],
  SPREADSHEET_TOO_LARGE: [
    (path) => uploadTo(path, zipBomb(64 * 1024 * 1024)), // details.maxInflatedBytes
    (path) => uploadTo(path, hostile('sst.xlsx')), // details.maxSharedStrings
    (path) => uploadTo(path, sheet(rowXml(1, HEADERS[path]) + `<row>${'<c><v>1</v></c>'.repeat(90)}</row>`.repeat(12_000))), // details.maxCells
    (path) => {
      // details.maxTableText: 10 million characters in the read columns, under every other limit.
      const text = '长'.repeat(200);
      const n = Math.ceil(10_000_000 / (HEADERS[path].length * text.length)) + 10;
      const rows = Array.from({ length: n }, (_, i) => rowXml(i + 2, HEADERS[path].map(() => text))).join('');
      return uploadTo(path, sheet(rowXml(1, HEADERS[path]) + rows));
    },
    async (path) => {
      setParseTimeLimit(1); // details.maxSeconds
      try {
        return await uploadTo(path, sheet(rowXml(1, HEADERS[path]) + rowsFor(path, 20_000)));
      } finally {
        setParseTimeLimit(PARSE_TIME_LIMIT_MS);
      }
    },
  ],
  UNREADABLE_SPREADSHEET: [(path) => uploadTo(path, hostile('cut.xlsx'))],
  EMPTY_SHEET: [(path) => uploadTo(path, sheet(''))],
  MISSING_HEADERS: [(path) => uploadTo(path, sheet(rowXml(1, ['备注']) + rowXml(2, ['x'])))],
  DUPLICATE_HEADER: [(path) => uploadTo(path, sheet(rowXml(1, [...HEADERS[path], HEADERS[path][0]]) + rowsFor(path, 1)))],
  NO_DATA_ROWS: [(path) => uploadTo(path, sheet(rowXml(1, HEADERS[path])))],
  TOO_MANY_ROWS: [(path) => uploadTo(path, sheet(rowXml(1, HEADERS[path]) + rowsFor(path, 1), { before: '<dimension ref="A1:E1048576"/>' }))],
  IMPORT_BUSY: [
    async (path) => {
      // More uploads at once than the parse thread and its queue take (1 + 4): the rest wait for nothing.
      const file = sheet(rowXml(1, HEADERS[path]) + rowsFor(path, 10_000));
      const answers = await Promise.all(Array.from({ length: 10 }, () => uploadTo(path, file)));
      return answers.find((a) => a.status === 503) ?? answers[0];
    },
  ],
};

describe('3. the upload and import limits', () => {
  const uploads = routes.filter((r) => r.multipart);
  const own = (r: AnyRoute) => (r.errors ?? []).map((e) => e.code);

  it('every refusal the import operations document has a way to provoke it here', () => {
    expect(uploads.length).toBeGreaterThanOrEqual(2);
    for (const r of uploads) expect(own(r).sort(), r.path).toEqual(Object.keys(UPLOAD_REFUSALS).sort());
  });

  it.each(uploads.map((r) => r.path))('%s: each refusal answered as documented', async (path) => {
    const from = exchanges.length;
    const details: string[] = [];
    for (const [code, ways] of Object.entries(UPLOAD_REFUSALS)) {
      for (const way of ways) {
        const res = await way(path);
        expect([res.status, res.json?.error?.code], `${path} ${code}`).toEqual([routes.find((r) => r.path === path)!.errors!.find((e) => e.code === code)!.status, code]);
        if (code === 'SPREADSHEET_TOO_LARGE') details.push(...Object.keys(res.json.error.details));
      }
    }
    expect(details).toEqual(['maxInflatedBytes', 'maxSharedStrings', 'maxCells', 'maxTableText', 'maxSeconds']);
    expect(deviationsSince(from)).toEqual([]);
  }, 180_000);
});

// ---- 4. no operation ------------------------------------------------------------------------------------------------

describe('4. paths and methods that are no operation', () => {
  it("answer as the document's components.responses say: 404 NOT_FOUND (HEAD without a body), a broken path 400", async () => {
    const from = exchanges.length;
    for (const [method, path] of [
      ['GET', '/api/nothing'],
      ['GET', '/api/health/'],
      ['GET', '/API/HEALTH'],
      ['PUT', '/api/health'],
      ['DELETE', '/api/reports/x/y'],
      ['HEAD', '/api/health'],
      ['OPTIONS', '/api/clock/start'],
    ]) {
      const res = await send({ method, path });
      expect(res.status, `${method} ${path}`).toBe(404);
      if (method !== 'HEAD') expect(res.json.error.code).toBe('NOT_FOUND');
    }
    const broken = await send({ method: 'PUT', path: '/api/devices/%zz/qrcode' });
    expect([broken.status, broken.json.error.code]).toEqual([400, 'MALFORMED_REQUEST']);
    expect(deviationsSince(from)).toEqual([]);
  });
});

// ---- the census ------------------------------------------------------------------------------------------------------

it("the census: every code of the HTTP layer's table was answered", () => {
  const answered = new Set([...seen].map((s) => s.split(' ').at(-1)));
  const missing = (Object.keys(COMMON) as CommonCode[]).filter((c) => !answered.has(c));
  expect(missing).toEqual([]);
  expect(contractDeviations(doc, exchanges, checker)).toEqual([]);
  expect(seen.size).toBeGreaterThan(300);
});
