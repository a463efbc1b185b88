/**
 * Structured JSON logging (pino). `createLogger(level)` gives the root logger; HTTP requests get a child
 * logger carrying their request id. Secrets are redacted by path wherever they may appear.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

/** The levels LOG_LEVEL may name (pino's), most verbose last. */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * The root pino logger at `level` (default 'info'): JSON lines with `time` in ISO 8601 (UTC),
 * `service: 'shift-reporting'`, secrets, tokens and the Authorization header redacted.
 */
export function createLogger(level = 'info'): Logger {
  return pino({
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    base: { service: 'shift-reporting' },
    redact: {
      paths: ['secret', '*.secret', 'access_token', '*.access_token', 'session_key', '*.session_key', 'token', '*.token', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  });
}
