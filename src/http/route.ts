/**
 * Route definitions: one declaration per endpoint gives express its handler, zod its validation and the
 * OpenAPI document its entry (one source of truth). Routes stay thin: parse, call, map the answer.
 *
 * `defineRoute({method, path, summary, access, params?, query?, body?, response?, status?, errors?, example, handler})`
 * - `path` in express form (`/api/reports/:reportId`).
 * - `access`: a role list from `auth/roles.ts` `access`, or 'public', or 'authenticated' (any role).
 * - `params`, `query`, `body`: zod schemas; each field carries its Chinese label as `.meta({ title })`, which
 *   validation messages (http/validation.ts) and the document use.
 * - `response`: the zod schema of the JSON answer (status `status`, default 200); a route with neither `response`
 *   nor `responseContentType` answers 204 without a body.
 * - `errors`: one entry per error code the endpoint may answer besides the common ones of http/openapi.ts,
 *   with the zod schema of its `details` when it has some (documented per operation as an enum of codes).
 * - `example`: one request and one answer, shown in the document; a test checks both against the schemas.
 * - `handler(input, ctx)`: returns the JSON body, or a `RawBody` for images and spreadsheets.
 */
import { WHOLE_FACTORY, type Scope } from '../domain/scope.ts';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Role } from '../auth/roles.ts';
import type { AppContext } from '../context.ts';
import type { Actor } from '../shared/actor.ts';

export interface CurrentUser {
  phone: string;
  /** From personnel; absent on routes whose handler checks the person itself (`personCheckedByHandler`). */
  name?: string;
  role: Role;
  /**
   * The person's scope in this role (domain/scope.ts; both lists empty = the whole factory);
   * absent on routes whose handler checks the person itself.
   */
  scope?: Scope;
}

/**
 * A non-JSON handler answer (image, spreadsheet): sent as is with `contentType` and `headers`, and as an attachment
 * named `filename` when given.
 */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: Buffer,
    readonly filename?: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The Actor of a request (the commands' shape): the token's person and role, and the request id. */
export const actorOf = (user: CurrentUser, req: { id: string }): Actor => ({ phone: user.phone, role: user.role, requestId: req.id });

/** The scope of the current user (domain/scope.ts): what the readings of reports apply. */
export const scopeOf = (user: CurrentUser): Scope => user.scope ?? WHOLE_FACTORY;

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteInput<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  /** Present on every route except 'public' ones. */
  user: CurrentUser;
  req: Request;
  res: Response;
}

/** An error an endpoint may answer: status, stable code, when it happens, and the shape of its `details`. */
export interface ErrorDoc {
  status: number;
  code: string;
  description: string;
  /** The zod schema of `error.details`; absent when the error has none. */
  details?: z.ZodType;
  /** The answer carries `Retry-After` (seconds; a RetryLaterError, src/errors.ts): the document lists the header. */
  retryAfter?: true;
}

/** One request of an operation and its success answer, as the document shows them. */
export interface RouteExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The JSON answer (absent for 204 and non-JSON answers). */
  response?: unknown;
}

export interface RouteSpec<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: readonly Role[] | 'public' | 'authenticated';
  /**
   * The handler's own statements check that the token's person still holds its role (and answer 401
   * ROLE_REVOKED when not), so authentication skips its personnel lookup: one round trip less on the worker's
   * hot path. `user.name` is then absent.
   */
  personCheckedByHandler?: boolean;
  /**
   * Served by the lean dispatcher (lean.ts) on node:http in front of express, for the worker's hot path: no path
   * parameters, no multipart, a JSON answer; the handler may use only `req.id` of the request (no express helpers).
   */
  lean?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The request body is multipart/form-data with a file in field `file` (read by the handler). */
  multipart?: boolean;
  response?: z.ZodType;
  /** Non-JSON success content type (e.g. image/png). */
  responseContentType?: string;
  status?: number;
  errors?: readonly ErrorDoc[];
  /** The route never reads the database (so it cannot answer 503 DATABASE_UNAVAILABLE). */
  noDatabase?: boolean;
  /**
   * The asynchronous read models the handler reads (names of async projections: 'wages', 'dashboard'). Before the
   * handler runs, the request waits until each holds every event committed when the request came that changes what
   * its readers are shown (projections/fresh-reads.ts), at most READ_MODEL_WAIT_SECONDS; past it, 503
   * READ_MODEL_BEHIND (common-errors.ts). So no answer is older than a write its reader made before asking.
   */
  readModels?: readonly string[];
  example?: RouteExample;
  handler(input: RouteInput<P, Q, B>, ctx: AppContext): Promise<unknown>;
}

export type AnyRoute = RouteSpec<any, any, any>;

/**
 * Declares one endpoint (module docstring); returns the spec unchanged, typed so that the handler's input follows
 * the params, query and body schemas.
 */
export function defineRoute<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: RouteSpec<P, Q, B>,
): AnyRoute {
  return spec as AnyRoute;
}
