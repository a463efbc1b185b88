/**
 * The crew lines of a submission or a correction (班组报工; domain/crew-split.ts, decisions.md "Crew work"), pure: the
 * one place for the rules of who a line counts.
 *
 * Submission (`crewLines`), for each line of product P (on its device D) in the submitter's session window W:
 * - a line that counts the submitter already (another's crew line naming them for P on D in a window overlapping W,
 *   src/crew/sql.ts `crewCoverageSql`) is refused: CREW_LINE_REPORTED naming that report and its submitter;
 * - a line with `crew` is a crew line: its members are the phones given and the submitter. A member who was not on D
 *   during W is refused: NOT_IN_CREW naming the person and W's times. A member whom another line counts already for
 *   P (their own report, or a third person's crew line) is left out. With one member left the line is the
 *   submitter's alone (no shares). Otherwise each member's share is computed (domain/crew-split.ts `crewShares` on
 *   CREW_SPLIT) from their seconds on D inside W and their coefficient on the report date, and recorded with the line.
 *
 * Correction (`correctedShares`): a corrected crew line keeps its recorded members and weights (omitting `crew`) or
 * keeps those of them `crew` names (a member not recorded: NOT_IN_CREW, since nobody else's presence is known to a
 * correction); the shares are computed again for the new quantities from the recorded weights.
 */
import { domainError } from '../domain/errors.ts';
import { COEFFICIENT_DEFAULT, crewShares, largestRemainder, type CrewMember, type CrewSplitMode } from '../domain/crew-split.ts';
import { onDevice, type CrewSession } from '../domain/crew-presence.ts';
import type { CrewShareRecord, LineInput, ReportLine } from '../domain/report-line.ts';
import { toZonedIso } from '../time.ts';

/** What the crew rules of a submission need (a fact of the command: commands/facts.ts `crew`). */
export interface CrewFacts {
  /** The sessions overlapping the window on the crew lines' devices (src/crew/sql.ts `crewPresenceSql`). */
  readonly sessions: readonly CrewSession[];
  /** The lines counting the submitter or a member already (`crewCoverageSql`). */
  readonly coverage: readonly { reportId: string; submitter: string; submitterName: string | null; productId: number; phone: string; crew: boolean }[];
  /** Names of the phones the lines name (personnel). */
  readonly names: readonly { phone: string; name: string | null }[];
}

/** The submitter's session window and what the split needs besides. */
export interface CrewContext {
  readonly submitter: string;
  readonly window: { readonly from: string; readonly to: string };
  readonly mode: CrewSplitMode;
  readonly timeZone: string;
  /** The instant an open member session runs to (the decision's now). */
  readonly now: string;
}

const hhmm = (at: string, timeZone: string) => toZonedIso(new Date(at), timeZone).slice(11, 16);

/** The lines `lines` (built from `input`, same order) with the crew rules applied (module docstring). */
export function crewLines(lines: readonly ReportLine[], input: readonly LineInput[], facts: CrewFacts | undefined, c: CrewContext): ReportLine[] {
  const coverage = facts?.coverage ?? [];
  return lines.map((line, i) => {
    const lineNo = i + 1;
    const mine = coverage.find((x) => x.productId === line.productId && x.phone === c.submitter && x.submitter !== c.submitter);
    if (mine) {
      throw domainError('CREW_LINE_REPORTED', { line: lineNo, productId: line.productId, reportId: mine.reportId, submitter: mine.submitter, submitterName: mine.submitterName });
    }
    const crew = input[i]?.crew;
    if (!crew || !facts) return line;
    const phones = [c.submitter, ...new Set(crew.filter((p) => p !== c.submitter))];
    const present = onDevice(facts.sessions, line.deviceNo, c.window, c.now, c.submitter);
    const members: (CrewMember & { name: string | null })[] = [];
    for (const phone of phones) {
      const here = present.find((m) => m.phone === phone);
      const name = here?.name ?? facts.names.find((n) => n.phone === phone)?.name ?? null;
      if (phone !== c.submitter && !here) {
        throw domainError('NOT_IN_CREW', {
          line: lineNo,
          phone,
          name,
          deviceNo: line.deviceNo,
          windowFrom: toZonedIso(new Date(c.window.from), c.timeZone),
          windowTo: toZonedIso(new Date(c.window.to), c.timeZone),
        }, { from: hhmm(c.window.from, c.timeZone), to: hhmm(c.window.to, c.timeZone) });
      }
      if (phone !== c.submitter && coverage.some((x) => x.productId === line.productId && x.phone === phone)) continue; // reported first: left out
      members.push({ phone, name, clockInAt: here?.firstAt ?? c.window.from, seconds: here?.seconds ?? 0, coefficient: here?.coefficient ?? COEFFICIENT_DEFAULT });
    }
    if (members.length < 2) return line;
    const shares = crewShares(members, c.mode, line);
    return { ...line, shares: shares.map((s, k) => ({ ...recorded(s), name: members[k].name })) };
  });
}

/** A share in the recorded shape (coefficient and weight as numbers of at most 2 decimals). */
const recorded = (s: ReturnType<typeof crewShares>[number]): CrewShareRecord => ({
  phone: s.phone,
  name: null,
  clockInAt: s.clockInAt,
  seconds: s.seconds,
  coefficient: s.coefficient / 100,
  weight: s.weight / 100,
  finishedQty: s.finishedQty,
  defectiveQty: s.defectiveQty,
});

/** A recorded weight or coefficient (at most 2 decimals) in hundredths, exact. */
export const hundredthsOf = (x: number): bigint => BigInt(Math.round(x * 100));

/**
 * The shares of a corrected line: `before` the recorded shares of the product's line (absent: not a crew line),
 * `crew` the members the correction keeps (absent: all), `line` the corrected quantities. Undefined when the line
 * is no crew line or one member is left. Throws NOT_IN_CREW for a member not recorded (line `lineNo`).
 */
export function correctedShares(
  before: readonly CrewShareRecord[] | undefined,
  crew: readonly string[] | undefined,
  line: { finishedQty: number; defectiveQty: number; deviceNo: string },
  lineNo: number,
): CrewShareRecord[] | undefined {
  if (!before) return undefined;
  const kept = crew ? before.filter((s) => crew.includes(s.phone)) : [...before];
  const unknown = (crew ?? []).find((p) => !before.some((s) => s.phone === p));
  if (unknown) throw domainError('NOT_IN_CREW', { line: lineNo, phone: unknown, name: null, deviceNo: line.deviceNo, windowFrom: null, windowTo: null }, { from: null, to: null });
  if (kept.length < 2) return undefined;
  const weights = kept.map((s) => hundredthsOf(s.weight));
  const finished = largestRemainder(BigInt(line.finishedQty), weights, kept);
  const defective = largestRemainder(BigInt(line.defectiveQty), weights, kept);
  return kept.map((s, k) => ({ ...s, finishedQty: Number(finished[k]), defectiveQty: Number(defective[k]) }));
}
