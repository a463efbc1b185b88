/**
 * The lean dispatcher: serves the routes marked `lean` (the worker's hot path: clock state, start, switch, finish,
 * report draft and submission) straight on node:http, in front of the express app, through the same pipeline
 * (pipeline.ts: request id, character check, authentication, zod validation, handler) and the same error mapping
 * (errors.ts). Why: express's per-request machinery (prototype swap of request and response, router walk,
 * body-parser streams, `res.json`/`res.send`) measured ~0.2 ms of CPU per request on the benchmark machine, as
 * much as the rest of a clock command; `npm run bench -- clock` shows the figures.
 *
 * A request is served here only when it is plain, so that it gets exactly the answer express would give:
 * the exact method and path of a lean route (express's case-insensitive or trailing-slash matches, HEAD and
 * anything else go to express); for a route with a body, `Content-Type: application/json` (charset UTF-8 or
 * none), no Content-Encoding and a Content-Length within JSON_BODY_LIMIT; for a route without one, no body at all.
 * Everything else falls through to express, which answers as it always did (413, 415, inflated bodies, …).
 * Lean handlers get node's request with `id` only as `req` (no express helpers) and must answer JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Logger } from '../logger.ts';
import { errorHeaders, toErrorAnswer } from './errors.ts';
import { JSON_BODY_LIMIT, logFailure, logRequest, requestIdOf, runRoute } from './pipeline.ts';
import { RawBody, type AnyRoute, type CurrentUser } from './route.ts';

/** Serves `req` when it is a plain request of a lean route and returns true; else returns false (express's). */
export type LeanDispatcher = (req: IncomingMessage, res: ServerResponse) => boolean;

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** A JSON parse failure, mapped by errors.ts like body-parser's (400 MALFORMED_JSON). */
const malformedJson = () => Object.assign(new Error('malformed JSON body'), { type: 'entity.parse.failed' });

/**
 * The lean dispatcher of `routes` (module docstring). Throws at build time when a route marked `lean` has path
 * parameters or a multipart body (those need express).
 */
export function leanDispatcher(ctx: AppContext, routes: readonly AnyRoute[]): LeanDispatcher {
  const table = new Map<string, AnyRoute>();
  for (const route of routes) {
    if (!route.lean) continue;
    if (route.path.includes(':') || route.multipart) throw new Error(`lean route ${route.path}: no path parameters or multipart bodies`);
    table.set(`${route.method.toUpperCase()} ${route.path}`, route);
  }
  const logRequests = ctx.log.isLevelEnabled('info');

  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const route = table.get(`${req.method} ${q < 0 ? url : url.slice(0, q)}`);
    if (!route) return false;
    const h = req.headers;
    const length = h['content-length'];
    if (route.body) {
      if (!JSON_TYPE.test(h['content-type'] ?? '') || h['content-encoding'] !== undefined) return false;
      if (length === undefined || h['transfer-encoding'] !== undefined || !(Number(length) <= JSON_BODY_LIMIT)) return false;
    } else if ((length !== undefined && length !== '0') || h['transfer-encoding'] !== undefined) {
      return false;
    }

    const id = requestIdOf(h['x-request-id']);
    (req as IncomingMessage & { id: string }).id = id;
    res.setHeader('x-request-id', id);
    const started = logRequests ? process.hrtime.bigint() : 0n;
    let log: Logger | undefined;
    const logger = () => (log ??= ctx.log.child({ requestId: id }));
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      if (value === undefined) {
        res.statusCode = status;
        res.end();
      } else {
        const text = JSON.stringify(value);
        res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      }
      if (logRequests) logRequest(logger(), req.method, url, status, started, (req as IncomingMessage & { user?: CurrentUser }).user);
    };
    /** Runs the route on the body `read()` gives (which throws for a malformed one) and answers. */
    const serve = async (read: () => unknown) => {
      try {
        const body = read();
        const query = q < 0 ? {} : parseQuery(url.slice(q + 1));
        const out = await runRoute(ctx, route, req as unknown as Request, res as unknown as Response, { params: {}, query, body });
        if (out instanceof RawBody) throw new Error(`lean route ${route.path} answered a RawBody`);
        send(out === undefined ? (route.status ?? 204) : (route.status ?? 200), out);
      } catch (err) {
        const [status, answer] = toErrorAnswer(err, id);
        logFailure(logger(), err, status, answer.error.code);
        if (!res.headersSent) send(status, answer, errorHeaders(err));
      }
    };

    if (!route.body) {
      void serve(() => undefined);
      return true;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serve(() => parseJsonBody(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'))));
    return true;
  };
}

/** body-parser's strict JSON: empty is {}, else an object or array (first non-blank character `{` or `[`). */
function parseJsonBody(text: string): unknown {
  if (text.length === 0) return {};
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw malformedJson();
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson();
  }
}
