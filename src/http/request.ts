/** What the HTTP layer adds to every express request: its id, its logger and (after auth) the user. */
import type { Logger } from '../logger.ts';
import type { CurrentUser } from './route.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
      user?: CurrentUser;
    }
  }
}
export {};
