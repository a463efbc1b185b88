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

/** AppError 404 with the given code and message. */
export const notFound = (code: string, message: string) => new AppError(404, code, message);
/** AppError 409 (state conflict) with the given code, message and optional details. */
export const conflict = (code: string, message: string, details?: unknown) => new AppError(409, code, message, details);
/** AppError 422 (validation) with the given code, message and optional details. */
export const unprocessable = (code: string, message: string, details?: unknown) =>
  new AppError(422, code, message, details);
