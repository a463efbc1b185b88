/**
 * The stop reason commands (停机原因): each one `runCommand` (command.ts) of ./decider.ts on the reason's whole
 * stream `stop-reason-<code>`; the actor goes into the events' metadata. Reasons are the whole factory's: a narrowly
 * scoped administrator or manager maintains none (WHOLE_FACTORY_ONLY). Run by src/http/routes/stop-reasons.ts.
 */
import { stopStreams } from '../../events/stop-events.ts';
import type { StopCategory, StopReason } from '../../domain/stop-reasons.ts';
import { runCommand, type CommandActor, type CommandDeps } from '../command.ts';
import { stopReasonDecider, type StopReasonCommand } from './decider.ts';

/** What a change gives; an absent field stays as it is. */
export interface StopReasonChange {
  name?: string;
  category?: StopCategory;
  active?: boolean;
}

function run(deps: CommandDeps, actor: CommandActor, code: string, make: (at: string) => StopReasonCommand): Promise<StopReason> {
  return runCommand(deps, actor, {
    decider: stopReasonDecider,
    stream: { streamId: stopStreams.stopReason(code), fold: stopReasonDecider },
    facts: { writeScope: [{ kind: 'factory', write: 'stopReason' } as const] },
    command: (_: unknown, now: Date) => make(now.toISOString()),
    answer: (state: { reason: StopReason | undefined }) => {
      if (!state.reason) throw new Error('no stop reason after a stop reason command');
      return state.reason;
    },
  });
}

/** Defines reason `code` → the reason (active). Throws STOP_REASON_EXISTS, INVALID_STOP_REASON, WHOLE_FACTORY_ONLY. */
export function defineStopReason(deps: CommandDeps, actor: CommandActor, input: { code: string; name: string; category: StopCategory }): Promise<StopReason> {
  return run(deps, actor, input.code, (at) => ({ type: 'DefineStopReason', ...input, at }));
}

/** Renames, recategorises, deactivates or reactivates reason `code` → the reason as it stands. Throws STOP_REASON_NOT_FOUND, INVALID_STOP_REASON, WHOLE_FACTORY_ONLY. */
export function changeStopReason(deps: CommandDeps, actor: CommandActor, code: string, change: StopReasonChange): Promise<StopReason> {
  return run(deps, actor, code, (at) => ({ type: 'ChangeStopReason', code, ...change, at }));
}
