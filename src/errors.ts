/**
 * Application errors: the one place where a failure gets its HTTP status, stable code and Chinese message
 * (decisions.md "HTTP conventions": `{"error": {"code", "message", "details"?}}`).
 *
 * Domain code throws `AppError` (or a subclass); the HTTP layer maps it as is. Anything else that reaches
 * the HTTP layer is an internal error (500, logged, no stack trace in the answer).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * An AppError that says when to try again: `retryAfterSeconds` (whole seconds, at least 1) goes into `details` and
 * into the answer's `Retry-After` header (http/errors.ts `errorHeaders`); its ErrorDoc sets `retryAfter` so that
 * the API document lists the header (http/openapi.ts).
 */
export class RetryLaterError extends AppError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, code, message, { retryAfterSeconds });
  }
}

/** AppError 404 with the given code and message. */
export const notFound = (code: string, message: string) => new AppError(404, code, message);
/** AppError 409 (state conflict) with the given code, message and optional details. */
export const conflict = (code: string, message: string, details?: unknown) => new AppError(409, code, message, details);
/** AppError 422 (validation) with the given code, message and optional details. */
export const unprocessable = (code: string, message: string, details?: unknown) =>
  new AppError(422, code, message, details);
