/**
 * Given-when-then for deciders, with no database: `given(events).when(command)` returns the new events, or the
 * refusal as the client gets it — the domain error through the HTTP edge's table (src/http/domain-errors.ts):
 * `{status, code, message, details, thrown}` — so a refusal's code, status and sentence are checked together.
 */
import { fold, type Decider } from '../../src/commands/decider.ts';
import { toErrorAnswer } from '../../src/http/errors.ts';

export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: any;
  /** What the decider threw. */
  thrown: unknown;
}

export function scenario<C, S, E>(decider: Decider<C, S, E>) {
  return {
    given(events: E[]) {
      return {
        /** Decides `command` on the state folded from the given events. Returns the events or the refusal. */
        when(command: C): { events?: E[]; /** A Refusal. */ error?: any; state: S } {
          const state = fold(decider, events);
          try {
            return { events: decider.decide(command, state), state };
          } catch (thrown) {
            const [status, body] = toErrorAnswer(thrown);
            return { error: { status, ...body.error, thrown }, state };
          }
        },
      };
    },
  };
}
