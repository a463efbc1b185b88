/**
 * The defect reason commands (不良原因): each one `runCommand` (command.ts) of ./decider.ts on the reason's whole
 * stream `defect-reason-<code>`; the actor goes into the events' metadata. Reasons are the whole factory's: a
 * narrowly scoped administrator or manager maintains none (WHOLE_FACTORY_ONLY). Run by
 * src/http/routes/defect-reasons.ts.
 */
import { streams } from '../../events/catalog.ts';
import type { DefectCategory, DefectReason } from '../../domain/defect-reasons.ts';
import { runCommand, type CommandActor, type CommandDeps } from '../command.ts';
import { defectReasonDecider, type DefectReasonCommand } from './decider.ts';

/** What a change gives; an absent field stays as it is. */
export interface DefectReasonChange {
  name?: string;
  category?: DefectCategory;
  active?: boolean;
}

function run(deps: CommandDeps, actor: CommandActor, code: string, make: (at: string) => DefectReasonCommand): Promise<DefectReason> {
  return runCommand(deps, actor, {
    decider: defectReasonDecider,
    stream: { streamId: streams.defectReason(code), fold: defectReasonDecider },
    facts: { writeScope: [{ kind: 'factory', write: 'defectReason' } as const] },
    command: (_: unknown, now: Date) => make(now.toISOString()),
    answer: (state: { reason: DefectReason | undefined }) => {
      if (!state.reason) throw new Error('no defect reason after a defect reason command');
      return state.reason;
    },
  });
}

/** Defines reason `code` → the reason (active). Throws DEFECT_REASON_EXISTS, INVALID_DEFECT_REASON, WHOLE_FACTORY_ONLY. */
export function defineDefectReason(deps: CommandDeps, actor: CommandActor, input: { code: string; name: string; category: DefectCategory }): Promise<DefectReason> {
  return run(deps, actor, input.code, (at) => ({ type: 'DefineDefectReason', ...input, at }));
}

/** Renames, recategorises, deactivates or reactivates reason `code` → the reason as it stands. Throws DEFECT_REASON_NOT_FOUND, INVALID_DEFECT_REASON, WHOLE_FACTORY_ONLY. */
export function changeDefectReason(deps: CommandDeps, actor: CommandActor, code: string, change: DefectReasonChange): Promise<DefectReason> {
  return run(deps, actor, code, (at) => ({ type: 'ChangeDefectReason', code, ...change, at }));
}
