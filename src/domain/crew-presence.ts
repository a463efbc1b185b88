/**
 * Who was on a device when (crew work, decisions.md "Crew work"): a session's device segments from its clocking
 * events, and a person's seconds on one device inside a window (the submitter's session, clock-in to clock-out).
 *
 * A session's segments: from each ClockedIn / DeviceSwitched to the next of them, the last one to the session's
 * clock-out (the latest ClockedOut: 重新报工 moves it, as it moves the session's effective time) or, for a session
 * still open, to the instant asked (`openUntil`). Instants are ISO 8601 strings; seconds whole (floored per
 * member, so a member's seconds never exceed the time they were there).
 */

/** One stretch of a session on one device: [from, to). */
export interface DeviceSegment {
  readonly deviceNo: string;
  readonly from: string;
  readonly to: string;
}

/** A clocking event of one session as the presence reads it. */
export interface ClockingStep {
  readonly type: 'ClockedIn' | 'DeviceSwitched' | 'ClockedOut';
  readonly deviceNo: string;
  readonly at: string;
}

/** The device segments of one session from its clocking steps in stream order (module docstring). */
export function deviceSegments(steps: readonly ClockingStep[], openUntil: string): DeviceSegment[] {
  const out: DeviceSegment[] = [];
  const moves = steps.filter((s) => s.type !== 'ClockedOut');
  const outs = steps.filter((s) => s.type === 'ClockedOut');
  const end = outs.length ? outs[outs.length - 1].at : openUntil;
  moves.forEach((s, i) => {
    const to = i + 1 < moves.length ? moves[i + 1].at : end;
    if (Date.parse(to) > Date.parse(s.at)) out.push({ deviceNo: s.deviceNo, from: s.at, to });
  });
  return out;
}

/** A person's presence on one device inside a window: whole seconds, and the first instant there (null: never). */
export interface Presence {
  readonly seconds: number;
  readonly firstAt: string | null;
}

/** The time `segments` spend on `deviceNo` inside [window.from, window.to) (module docstring). */
export function presenceOn(segments: readonly DeviceSegment[], deviceNo: string, window: { from: string; to: string }): Presence {
  const [w0, w1] = [Date.parse(window.from), Date.parse(window.to)];
  let ms = 0;
  let first: number | null = null;
  for (const s of segments) {
    if (s.deviceNo !== deviceNo) continue;
    const from = Math.max(w0, Date.parse(s.from));
    const to = Math.min(w1, Date.parse(s.to));
    if (to <= from) continue;
    ms += to - from;
    first = first === null ? from : Math.min(first, from);
  }
  return { seconds: Math.floor(ms / 1000), firstAt: first === null ? null : new Date(first).toISOString() };
}

/** A worker's clocked session as the crew reads it (src/crew/sql.ts `crewPresenceSql`). */
export interface CrewSession {
  readonly phone: string;
  readonly name: string | null;
  /** The worker's coefficient on the report date, hundredths. */
  readonly coefficient: number;
  readonly steps: readonly ClockingStep[];
}

/** A person on a device inside a window, over all their sessions. */
export interface OnDevice {
  readonly phone: string;
  readonly name: string | null;
  readonly coefficient: number;
  readonly seconds: number;
  readonly firstAt: string;
}

/**
 * Everyone of `sessions` on `deviceNo` inside `window` for at least a second, `first` (the submitter) first, the
 * others by their first instant there, then phone. Open sessions run to `openUntil`.
 */
export function onDevice(sessions: readonly CrewSession[], deviceNo: string, window: { from: string; to: string }, openUntil: string, first: string): OnDevice[] {
  const by = new Map<string, { phone: string; name: string | null; coefficient: number; seconds: number; firstAt: string | null }>();
  for (const s of sessions) {
    const p = presenceOn(deviceSegments(s.steps, openUntil), deviceNo, window);
    const had = by.get(s.phone) ?? { phone: s.phone, name: s.name, coefficient: s.coefficient, seconds: 0, firstAt: null };
    by.set(s.phone, {
      ...had,
      seconds: had.seconds + p.seconds,
      firstAt: p.firstAt && (had.firstAt === null || p.firstAt < had.firstAt) ? p.firstAt : had.firstAt,
    });
  }
  return [...by.values()]
    .filter((m): m is OnDevice => m.seconds > 0 && m.firstAt !== null)
    .sort((a, b) => (a.phone === first ? -1 : b.phone === first ? 1 : a.firstAt.localeCompare(b.firstAt) || a.phone.localeCompare(b.phone)));
}
