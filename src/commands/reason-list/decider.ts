/**
 * The decider of a reason list (原因清单): the master data the defect reasons (不良原因, domain/defect-reasons.ts) and
 * the stop reasons (停机原因, domain/stop-reasons.ts) share, one stream per reason (`<kind>-reason-<code>`), pure.
 * Each kind instantiates it with its own command, event and error names (commands/defect-reasons/decider.ts,
 * commands/stop-reasons/decider.ts); the rules are the same for both:
 *
 * - Define {code, name, category} on no reason → Defined (active); `exists` (409) when the code is taken, also by a
 *   deactivated reason (reactivate it instead).
 * - Change {code, name?, category?, active?} → Changed with the whole new state; `notFound` (404) on no reason;
 *   nothing changed decides nothing. A reason is never deleted: `active: false` takes it out of the pickers, the
 *   lines and stops that name it keep it.
 * Both: `invalid` (422, details.field `code` | `name`, context.max) for a code out of `codeRe` or a name of 0 or more
 * than `nameMax` characters after trimming.
 */
import type { Decider } from '../decider.ts';
import { domainError } from '../../domain/errors.ts';

/** The error codes of one kind (all declared in domain/errors.ts with the same shapes). */
export interface ReasonListErrors {
  readonly invalid: 'INVALID_DEFECT_REASON' | 'INVALID_STOP_REASON';
  readonly exists: 'DEFECT_REASON_EXISTS' | 'STOP_REASON_EXISTS';
  readonly notFound: 'DEFECT_REASON_NOT_FOUND' | 'STOP_REASON_NOT_FOUND';
}

/** What distinguishes one kind of reason list: its names and rules. */
export interface ReasonListKind<Def extends string, Chg extends string, Defined extends string, Changed extends string> {
  readonly define: Def;
  readonly change: Chg;
  readonly defined: Defined;
  readonly changed: Changed;
  readonly errors: ReasonListErrors;
  readonly codeRe: RegExp;
  readonly codeMax: number;
  readonly nameMax: number;
}

/** A reason as the commands know it. */
export interface ListedReason<Cat extends string> {
  readonly code: string;
  readonly name: string;
  readonly category: Cat;
  readonly active: boolean;
}

/** Defines a reason. */
export interface DefineReason<Def extends string, Cat extends string> {
  readonly type: Def;
  readonly code: string;
  readonly name: string;
  readonly category: Cat;
  readonly at: string;
}
/** Changes a reason; an absent field stays as it is. */
export interface ChangeReason<Chg extends string, Cat extends string> {
  readonly type: Chg;
  readonly code: string;
  readonly name?: string;
  readonly category?: Cat;
  readonly active?: boolean;
  readonly at: string;
}
export type ReasonListCommand<Def extends string, Chg extends string, Cat extends string> = DefineReason<Def, Cat> | ChangeReason<Chg, Cat>;

export type ReasonListEvent<Defined extends string, Changed extends string, Cat extends string> =
  | { type: Defined; data: { code: string; name: string; category: Cat; at: string } }
  | { type: Changed; data: { code: string; name: string; category: Cat; active: boolean; at: string } };

export interface ReasonListState<Cat extends string> {
  readonly reason: ListedReason<Cat> | undefined;
}

/** The decider of one kind of reason list (module docstring). */
export function reasonListDecider<Cat extends string, Def extends string, Chg extends string, Defined extends string, Changed extends string>(
  kind: ReasonListKind<Def, Chg, Defined, Changed>,
): Decider<ReasonListCommand<Def, Chg, Cat>, ReasonListState<Cat>, ReasonListEvent<Defined, Changed, Cat>> {
  const checkedName = (name: string): string => {
    const trimmed = name.trim();
    if (trimmed.length === 0 || [...trimmed].length > kind.nameMax) throw domainError(kind.errors.invalid, { field: 'name' }, { max: kind.nameMax });
    return trimmed;
  };
  const isDefine = (c: ReasonListCommand<Def, Chg, Cat>): c is DefineReason<Def, Cat> => c.type === kind.define;
  const defined = (data: ReasonListEvent<Defined, Changed, Cat>['data']): ReasonListEvent<Defined, Changed, Cat> => ({ type: kind.defined, data });
  const changed = (data: ReasonListEvent<Defined, Changed, Cat>['data'] & { active: boolean }): ReasonListEvent<Defined, Changed, Cat> => ({ type: kind.changed, data });
  return {
    initialState: { reason: undefined },

    decide(c, state) {
      if (!kind.codeRe.test(c.code)) throw domainError(kind.errors.invalid, { field: 'code' }, { max: kind.codeMax });
      if (isDefine(c)) {
        if (state.reason) throw domainError(kind.errors.exists, { code: c.code, name: state.reason.name, active: state.reason.active });
        return [defined({ code: c.code, name: checkedName(c.name), category: c.category, at: c.at })];
      }
      const ch = c as ChangeReason<Chg, Cat>;
      const r = state.reason;
      if (!r) throw domainError(kind.errors.notFound, { code: c.code });
      const next = { code: r.code, name: ch.name === undefined ? r.name : checkedName(ch.name), category: ch.category ?? r.category, active: ch.active ?? r.active };
      if (next.name === r.name && next.category === r.category && next.active === r.active) return [];
      return [changed({ ...next, at: c.at })];
    },

    evolve(_, event) {
      const d = event.data;
      return { reason: { code: d.code, name: d.name, category: d.category, active: 'active' in d ? d.active : true } };
    },
  };
}
