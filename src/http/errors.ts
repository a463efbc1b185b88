/**
 * Mapping any failure to the error answer (decisions.md "HTTP conventions"):
 * `{"error": {"code", "message", "details"?, "requestId"}}`, the request id being the one of the `x-request-id`
 * answer header (a person reporting a problem quotes the body). Domain errors answer as their table says
 * (domain-errors.ts); a race lost on every attempt (StreamVersionConflict) is 409 CONCURRENT_MODIFICATION; AppError
 * keeps its status; zod failures are 422 VALIDATION_FAILED, `message` the issues' Chinese sentences
 * (http/validation.ts) joined by "；" and `details` the issues `[{path, message}]`; unparseable JSON 400
 * MALFORMED_JSON; a body cut short 400 MALFORMED_REQUEST; oversized bodies 413; a charset or Content-Encoding
 * body-parser cannot read 415 UNSUPPORTED_ENCODING; a body that does not inflate by its Content-Encoding, a path
 * parameter with a broken percent-escape and any other client error express or body-parser raise (an http-errors
 * 4xx, whatever its status) 400 MALFORMED_REQUEST; a lost database connection 503
 * DATABASE_UNAVAILABLE (src/db/failures.ts); a read model that did not catch up in time 503 READ_MODEL_BEHIND
 * (projections/fresh-reads.ts); anything else 500 INTERNAL_ERROR, logged with its stack, never shown.
 * The HTTP layer's own refusals take their status, code and sentence from common-errors.ts, the table the API
 * document lists them from. `errorHeaders(err)`: the headers that go with an answer (Retry-After of a
 * RetryLaterError: a rate limit, a busy import; and of READ_MODEL_BEHIND).
 */
import type { ErrorRequestHandler } from 'express';
import { ZodError } from 'zod';
import { connectionFailed } from '../db/failures.ts';
import { AppError, RetryLaterError } from '../errors.ts';
import { DomainError } from '../domain/errors.ts';
import { StreamVersionConflict } from '../events/store.ts';
import { ReadModelBehind } from '../projections/fresh-reads.ts';
import { COMMON, type CommonCode } from './common-errors.ts';
import { domainAnswer } from './domain-errors.ts';
import { logFailure } from './pipeline.ts';

export interface ErrorBody {
  /** `requestId` is on every answer the service sends (absent only where a test maps an error without a request). */
  error: { code: string; message: string; details?: unknown; requestId?: string };
}

/** Converts an error into [status, body]; the body carries `requestId` when given. */
export function toErrorAnswer(err: unknown, requestId?: string): [number, ErrorBody] {
  const [status, error] = errorAnswer(err);
  return [status, { error: requestId === undefined ? error : { ...error, requestId } }];
}

/** Seconds after which a read refused with READ_MODEL_BEHIND may be tried again (Retry-After). */
export const READ_MODEL_RETRY_SECONDS = 2;

/**
 * The headers of the error answer to `err`: Retry-After (seconds) of a RetryLaterError (a rate limit,
 * auth/rate-limit.ts; a busy import, imports/parse-pool.ts) and of a read model behind (READ_MODEL_RETRY_SECONDS),
 * else none.
 */
export function errorHeaders(err: unknown): Record<string, string> {
  if (err instanceof RetryLaterError) return { 'retry-after': String(err.retryAfterSeconds) };
  return err instanceof ReadModelBehind ? { 'retry-after': String(READ_MODEL_RETRY_SECONDS) } : {};
}

type Answer = [number, ErrorBody['error']];

/** The answer of common error `code` (common-errors.ts), with its sentence or `message`. */
const common = (code: CommonCode, message?: string): Answer => [COMMON[code].status, { code, message: message ?? COMMON[code].message }];

function errorAnswer(err: unknown): Answer {
  if (err instanceof DomainError) {
    const { status, message } = domainAnswer(err);
    return [status, { code: err.code, message, ...(err.details !== undefined ? { details: err.details } : {}) }];
  }
  if (err instanceof StreamVersionConflict) {
    return [409, { code: 'CONCURRENT_MODIFICATION', message: '数据刚被其他操作修改，请刷新后重试' }];
  }
  if (err instanceof AppError) {
    return [err.status, { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) }];
  }
  if (err instanceof ZodError) {
    return [
      COMMON.VALIDATION_FAILED.status,
      {
        code: 'VALIDATION_FAILED',
        message: err.issues.map((i) => i.message).join('；'),
        details: err.issues.map((i) => ({ path: i.path, message: i.message })),
      },
    ];
  }
  const e = err as { type?: string; status?: number; expose?: boolean; code?: string; message?: string };
  if (e?.type === 'entity.parse.failed') return common('MALFORMED_JSON');
  if (e?.type === 'entity.too.large') return common('PAYLOAD_TOO_LARGE');
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') return common('UNSUPPORTED_ENCODING');
  if (e?.type === 'request.size.invalid' || e?.type === 'request.aborted') return common('MALFORMED_REQUEST', '请求不完整，请重试');
  if (err instanceof URIError && e.status === 400) return common('MALFORMED_REQUEST', '请求地址中的百分号编码（%xx）不正确，请检查链接');
  // body-parser's inflation failures (zlib's Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_*) and any other client
  // error of express or body-parser come as http-errors with a 4xx status (and `expose`): all are a request that
  // cannot be read, answered with the one documented code for it.
  if (e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return common('MALFORMED_REQUEST', '请求内容无法读取（压缩数据损坏或格式不正确），请重试');
  }
  if (connectionFailed(err)) return common('DATABASE_UNAVAILABLE');
  if (err instanceof ReadModelBehind) return common('READ_MODEL_BEHIND');
  return common('INTERNAL_ERROR');
}

export const errorMiddleware: ErrorRequestHandler = (err, req, res, _next) => {
  const [status, body] = toErrorAnswer(err, req.id);
  logFailure(req.log, err, status, body.error.code);
  if (res.headersSent) return;
  res.status(status).set(errorHeaders(err)).json(body);
};
