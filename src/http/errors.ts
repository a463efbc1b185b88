/**
 * Mapping any failure to the error answer (decisions.md "HTTP conventions"):
 * `{"error": {"code", "message", "details"?, "requestId"}}`, the request id being the one of the `x-request-id`
 * answer header (issue #16: a person reporting a problem quotes the body). Domain errors answer as their table says
 * (domain-errors.ts); a race lost on every attempt (StreamVersionConflict) is 409 CONCURRENT_MODIFICATION; AppError
 * keeps its status; zod failures are 422 VALIDATION_FAILED, `message` the issues' Chinese sentences
 * (http/validation.ts) joined by "；" and `details` the issues `[{path, message}]`; unparseable JSON 400
 * MALFORMED_JSON; a body cut short 400 MALFORMED_REQUEST; oversized bodies 413; a charset or Content-Encoding
 * body-parser cannot read 415 UNSUPPORTED_ENCODING; a body that does not inflate by its Content-Encoding, a path
 * parameter with a broken percent-escape and any other client error express or body-parser raise (an http-errors
 * 4xx) 400 MALFORMED_REQUEST (issue #14 classes 3, 4); a lost database connection 503 DATABASE_UNAVAILABLE
 * (src/db/failures.ts); anything else 500 INTERNAL_ERROR, logged with its stack, never shown.
 */
import type { ErrorRequestHandler } from 'express';
import { ZodError } from 'zod';
import { connectionFailed } from '../db/failures.ts';
import { AppError } from '../errors.ts';
import { DomainError } from '../domain/errors.ts';
import { StreamVersionConflict } from '../events/store.ts';
import { domainAnswer } from './domain-errors.ts';
import { logFailure } from './pipeline.ts';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; requestId?: string };
}

/** Converts an error into [status, body]; the body carries `requestId` when given. */
export function toErrorAnswer(err: unknown, requestId?: string): [number, ErrorBody] {
  const [status, body] = errorAnswer(err);
  if (requestId !== undefined) body.error.requestId = requestId;
  return [status, body];
}

function errorAnswer(err: unknown): [number, ErrorBody] {
  if (err instanceof DomainError) {
    const { status, message } = domainAnswer(err);
    return [status, { error: { code: err.code, message, ...(err.details !== undefined ? { details: err.details } : {}) } }];
  }
  if (err instanceof StreamVersionConflict) {
    return [409, { error: { code: 'CONCURRENT_MODIFICATION', message: '数据刚被其他操作修改，请刷新后重试' } }];
  }
  if (err instanceof AppError) {
    const body: ErrorBody = { error: { code: err.code, message: err.message } };
    if (err.details !== undefined) body.error.details = err.details;
    return [err.status, body];
  }
  if (err instanceof ZodError) {
    return [
      422,
      {
        error: {
          code: 'VALIDATION_FAILED',
          message: err.issues.map((i) => i.message).join('；'),
          details: err.issues.map((i) => ({ path: i.path, message: i.message })),
        },
      },
    ];
  }
  const e = err as { type?: string; status?: number; expose?: boolean; code?: string; message?: string };
  if (e?.type === 'entity.parse.failed') return [400, { error: { code: 'MALFORMED_JSON', message: '请求内容不是有效的 JSON' } }];
  if (e?.type === 'entity.too.large') return [413, { error: { code: 'PAYLOAD_TOO_LARGE', message: '请求内容过大' } }];
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
    return [415, { error: { code: 'UNSUPPORTED_ENCODING', message: '请求内容的编码不受支持，请以 UTF-8 编码的 JSON 提交' } }];
  }
  if (e?.type === 'request.size.invalid' || e?.type === 'request.aborted') {
    return [400, { error: { code: 'MALFORMED_REQUEST', message: '请求不完整，请重试' } }];
  }
  if (err instanceof URIError && e.status === 400) {
    return [400, { error: { code: 'MALFORMED_REQUEST', message: '请求地址中的百分号编码（%xx）不正确，请检查链接' } }];
  }
  // body-parser's inflation failures (zlib's Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_*) and any other client
  // error of express or body-parser come as http-errors with a 4xx status (and `expose`).
  if (e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return [e.status, { error: { code: 'MALFORMED_REQUEST', message: '请求内容无法读取（压缩数据损坏或格式不正确），请重试' } }];
  }
  if (connectionFailed(err)) {
    return [503, { error: { code: 'DATABASE_UNAVAILABLE', message: '数据库暂时不可用，请稍后重试' } }];
  }
  return [500, { error: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' } }];
}

export const errorMiddleware: ErrorRequestHandler = (err, req, res, _next) => {
  const [status, body] = toErrorAnswer(err, req.id);
  logFailure(req.log, err, status, body.error.code);
  if (res.headersSent) return;
  res.status(status).json(body);
};
