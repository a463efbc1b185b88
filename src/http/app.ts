/**
 * The express application: request ids and logs, JSON body limits, every route of `routes/index.ts` with
 * its zod validation and role guard, JSON 404 for unknown routes, and the error mapping.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type NextFunction } from 'express';
import type { AppContext } from '../context.ts';
import { notFound, unprocessable } from '../errors.ts';
import { authenticate } from './auth.ts';
import { errorMiddleware } from './errors.ts';
import { RawBody, type AnyRoute } from './route.ts';
import './request.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Builds the express app for `routes` (module docstring): request ids (a valid `x-request-id` is kept, else a UUID),
 * JSON bodies up to 256 kB, 422 INVALID_CHARACTERS for NUL characters, authentication and zod validation per route,
 * 404 NOT_FOUND for unknown routes, then the error middleware. A handler's result is sent as JSON (`route.status`
 * or 200), a RawBody as is, and nothing as 204.
 */
export function createHttpApp(ctx: AppContext, routes: readonly AnyRoute[]): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');
  app.set('etag', false); // JSON answers of an API: a hash of every body for nothing
  // The request's logger (with its request id) is made when first used: most requests never log.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { _log?: Request['log'] }) {
      return (this._log ??= ctx.log.child({ requestId: this.id }));
    },
  });
  const logRequests = ctx.log.isLevelEnabled('info');

  app.use((req: Request, res: Response, next: NextFunction) => {
    const given = req.header('x-request-id');
    req.id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', req.id);
    if (logRequests) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        req.log.info(
          { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
          'request',
        );
      });
    }
    next();
  });
  app.use(express.json({ limit: '256kb' }));

  for (const route of routes) {
    app[route.method](route.path, async (req: Request, res: Response) => {
      rejectNulCharacters(req);
      const user = await authenticate(ctx, req, route);
      req.user = user;
      const input = {
        params: route.params ? route.params.parse(req.params) : undefined,
        query: route.query ? route.query.parse(req.query) : undefined,
        body: route.body ? route.body.parse(req.body ?? {}) : undefined,
        user: user!,
        req,
        res,
      };
      const out = await route.handler(input, ctx);
      if (res.headersSent) return;
      if (out instanceof RawBody) {
        res.status(route.status ?? 200).type(out.contentType);
        for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
        if (out.filename) res.attachment(out.filename);
        res.send(out.body);
        return;
      }
      if (out === undefined) res.status(route.status ?? 204).end();
      else res.status(route.status ?? 200).json(out);
    });
  }

  app.use((req: Request) => {
    throw notFound('NOT_FOUND', `没有这个接口：${req.method} ${req.path}`);
  });
  app.use(errorMiddleware);
  return app;
}

/** True when `v` (a string, or arrays/objects of them) holds a NUL character. */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 20 || v === null || typeof v !== 'object') return false;
  return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
}

/**
 * PostgreSQL text cannot hold a NUL character, so no input of this service can contain one: refused here, for
 * every route, before validation (422 INVALID_CHARACTERS), rather than failing in the database.
 */
function rejectNulCharacters(req: Request): void {
  if (hasNul(req.params) || hasNul(req.query) || hasNul(req.body)) {
    throw unprocessable('INVALID_CHARACTERS', '提交的内容含有无效字符（\\0），请检查后重新输入');
  }
}
