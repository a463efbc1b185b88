/**
 * One route's request pipeline, shared by the express app (http/app.ts) and the lean dispatcher of the worker's
 * hot routes (http/lean.ts), so that both apply the same rules in the same order:
 * 1. `requestIdOf(header)`: a valid `x-request-id` is kept, else a new UUID (sent back in the same header);
 * 2. `runRoute(ctx, route, req, res, raw)`: NUL characters and lone surrogates refused (422 INVALID_CHARACTERS), authentication and
 *    role guard (auth.ts: 401/403), zod validation of params, query and body (422 VALIDATION_FAILED), the wait for
 *    the async read models the route reads (`readModels`: projections/fresh-reads.ts, 503 READ_MODEL_BEHIND), then
 *    the handler, whose result it returns;
 * 3. `logRequest` / `logFailure`: the request log line (at info) and the refusal (info) or failure (error) line.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Logger } from '../logger.ts';
import { isValidText } from '../text.ts';
import { authenticate } from './auth.ts';
import { commonError } from './common-errors.ts';
import type { AnyRoute, CurrentUser } from './route.ts';
import { parseInput } from './validation.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The largest JSON request body, in bytes (256 kB); a larger one is 413 PAYLOAD_TOO_LARGE. */
export const JSON_BODY_LIMIT = 256 * 1024;

/** The request's id: the client's `x-request-id` when it is 1–64 of [A-Za-z0-9._-], else a new UUID. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The request as read off the wire, before validation. */
export interface RawInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Step 2 of the module docstring for `route`: returns the handler's result (JSON value, RawBody or undefined).
 * `req` carries the request id and headers (express's Request, or node's request on the lean path, where the
 * handler may use only `req.id`). Throws AppError 422 INVALID_CHARACTERS, the auth errors, ZodError,
 * ReadModelBehind (the read models' wait), and whatever the handler throws.
 */
export async function runRoute(ctx: AppContext, route: AnyRoute, req: Request, res: Response, raw: RawInput): Promise<unknown> {
  rejectInvalidCharacters(raw);
  const user = await authenticate(ctx, req, route);
  req.user = user;
  const input = {
    params: route.params ? parseInput(route.params, raw.params, 'params') : undefined,
    query: route.query ? parseInput(route.query, raw.query, 'query') : undefined,
    body: route.body ? parseInput(route.body, raw.body ?? {}, 'body') : undefined,
    user: user!,
    req,
    res,
  };
  if (route.readModels) await ctx.freshReads.await(route.readModels);
  return route.handler(input, ctx);
}

/**
 * PostgreSQL text cannot hold a NUL character, and a lone UTF-16 surrogate (`"\ud800"` in JSON) is no text
 * at all (PostgreSQL refuses it in jsonb, and drivers replace it with U+FFFD in text): no input of this service
 * can contain either. Refused here, for every route, before validation (422 INVALID_CHARACTERS), in path
 * parameters, queries, bodies and their keys at any depth, rather than failing in the database (spreadsheet
 * cells: src/imports/problems.ts).
 */
function rejectInvalidCharacters(raw: RawInput): void {
  if (holdsInvalidText(raw.params) || holdsInvalidText(raw.query) || holdsInvalidText(raw.body)) {
    throw commonError('INVALID_CHARACTERS');
  }
}

/** True when `v` (a string, or arrays/objects of them, at any depth, keys included) holds text that isValidText refuses. */
function holdsInvalidText(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (!isValidText(x)) return true;
    } else if (x !== null && typeof x === 'object') {
      for (const k in x) {
        if (!isValidText(k)) return true;
        stack.push((x as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}

/**
 * The request log line (info): method, URL, status, milliseconds since `started` (process.hrtime.bigint()) and,
 * once authenticated, the actor's phone and role.
 */
export function logRequest(log: Logger, method: string | undefined, url: string | undefined, status: number, started: bigint, user?: CurrentUser): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (user) log.info({ method, url, status, ms, phone: user.phone, role: user.role }, 'request');
  else log.info({ method, url, status, ms }, 'request');
}

/** The log line of an error answer: 5xx as an error with the cause's stack, others as an info refusal. */
export function logFailure(log: Logger | undefined, err: unknown, status: number, code: string): void {
  if (status >= 500) log?.error({ err }, 'request failed');
  else log?.info({ code, status }, 'request refused');
}
