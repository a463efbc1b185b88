/**
 * The express application: request ids and logs, JSON body limits, every route of `routes/index.ts` with
 * its zod validation and role guard, JSON 404 for unknown routes, and the error mapping.
 *
 * Routing is strict and case-sensitive: only the documented paths answer (`/api/health/` and
 * `/API/HEALTH` are 404), and under `/api/` express's implicit HEAD and OPTIONS answers are 404 too, since the
 * document lists neither. Other paths (the console's static files) keep express's defaults.
 */
import express, { type Request, type Response, type NextFunction } from 'express';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { ChunkedJson } from './chunked-json.ts';
import { mountConsole } from './console-static.ts';
import { NOT_FOUND } from './common-errors.ts';
import { errorMiddleware } from './errors.ts';
import { JSON_BODY_LIMIT, logRequest, requestIdOf, runRoute } from './pipeline.ts';
import { RawBody, type AnyRoute } from './route.ts';
import './request.ts';

/** 404 NOT_FOUND: `method` `path` is no operation (common-errors.ts). */
const notFound = (method: string, path: string) => new AppError(NOT_FOUND.status, NOT_FOUND.code, NOT_FOUND.message(method, path));

/**
 * Builds the express app for `routes` (module docstring): request ids (a valid `x-request-id` is kept, else a UUID),
 * JSON bodies up to 256 kB on the routes that take one, 422 INVALID_CHARACTERS for NUL characters and lone
 * surrogates, authentication and zod validation per route, 404 NOT_FOUND for unknown routes, then the error
 * middleware. A handler's result is sent as JSON (`route.status` or 200; a ChunkedJson in pieces), a RawBody as is,
 * and nothing as 204. The
 * client address (rate limits) comes from `X-Forwarded-For` when the request came through a proxy TRUST_PROXY
 * trusts.
 */
export function createHttpApp(ctx: AppContext, routes: readonly AnyRoute[]): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
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
    req.id = requestIdOf(req.headers['x-request-id']);
    res.setHeader('x-request-id', req.id);
    if (logRequests) {
      const started = process.hrtime.bigint();
      res.on('finish', () => logRequest(req.log, req.method, req.originalUrl, res.statusCode, started, req.user));
    }
    next();
  });
  mountConsole(app); // the web console's static files at /console/
  app.use('/api', (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'HEAD' || req.method === 'OPTIONS') throw notFound(req.method, req.originalUrl.split('?')[0]);
    next();
  });
  const json = express.json({ limit: JSON_BODY_LIMIT });

  for (const route of routes) {
    const parsers = route.body && !route.multipart ? [json] : [];
    app[route.method](route.path, ...parsers, async (req: Request, res: Response) => {
      const out = await runRoute(ctx, route, req, res, { params: req.params, query: req.query, body: req.body });
      if (res.headersSent) return;
      if (out instanceof ChunkedJson) return out.writeTo(res, route.status ?? 200);
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
    throw notFound(req.method, req.path);
  });
  app.use(errorMiddleware);
  return app;
}
