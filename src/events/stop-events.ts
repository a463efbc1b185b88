/**
 * The events of downtime (停机), part of the catalog (catalog.ts lists them in `eventDefinitions`):
 *
 * - `stop-reason-<code>`: a stop reason (停机原因, domain/stop-reasons.ts). StopReasonDefined, StopReasonChanged (the
 *   whole new state: rename, recategorise, deactivate, reactivate).
 * - `stops-<deviceNo>`: the stops of one device, its consistency boundary ("one stop per device at a time",
 *   commands/stops/decider.ts). StopStarted (a worker's 停机 from the phone, `endAt` null; or a past stop an
 *   administrator or manager records, with both ends and a note), StopEnded (恢复生产; `bySystem` when the stop was
 *   still open when the last worker left the device and is ended there, domain/stops.ts), StopCorrected (reason
 *   and times before → after, with the note: the audit).
 *
 * Instants are ISO 8601 strings in UTC. The category of a stop is not copied into its events: a stop is counted
 * under its reason's category of now (a reason recategorised is a correction of the classification).
 */
import { z } from 'zod';
import { defineEvent } from './define.ts';
import { STOP_REASON_CODE_RE, STOP_REASON_NAME_MAX, stopCategorySchema } from '../domain/stop-reasons.ts';

const instant = z.string().datetime({ offset: true });

/** The stream of stop reason `code`, of the stops of device `deviceNo`. */
export const stopStreams = {
  stopReason: (code: string) => `stop-reason-${code}`,
  deviceStops: (deviceNo: string) => `stops-${deviceNo}`,
};

const stopReasonFields = {
  code: z.string().regex(STOP_REASON_CODE_RE),
  name: z.string().min(1).max(STOP_REASON_NAME_MAX),
  category: stopCategorySchema,
};
/** A new stop reason, active (domain/stop-reasons.ts). */
export const StopReasonDefined = defineEvent({ type: 'StopReasonDefined', schema: z.object({ ...stopReasonFields, at: instant }) });
/** A stop reason changed: its whole new state (name, category, active). */
export const StopReasonChanged = defineEvent({ type: 'StopReasonChanged', schema: z.object({ ...stopReasonFields, active: z.boolean(), at: instant }) });

/** Who recorded or changed a stop (the person; the events' metadata carry it too). */
const by = z.object({ phone: z.string(), name: z.string().nullable() });

/** A stop began (endAt null: it lasts) or a past stop was recorded (both ends, a note). */
export const StopStarted = defineEvent({
  type: 'StopStarted',
  schema: z.object({
    stopId: z.string().uuid(),
    deviceNo: z.string().min(1),
    reasonCode: z.string().regex(STOP_REASON_CODE_RE),
    startAt: instant,
    endAt: instant.nullable(),
    note: z.string().nullable(),
    by,
    at: instant,
  }),
});
/** A lasting stop ended (恢复生产), by a person, or by the system where the device's attendance ended. */
export const StopEnded = defineEvent({
  type: 'StopEnded',
  schema: z.object({ stopId: z.string().uuid(), deviceNo: z.string().min(1), endAt: instant, bySystem: z.boolean(), by: by.nullable(), at: instant }),
});
const stopTimes = z.object({ reasonCode: z.string().regex(STOP_REASON_CODE_RE), startAt: instant, endAt: instant.nullable() });
/** A stop corrected by an administrator or manager: reason and times before → after, with the note. */
export const StopCorrected = defineEvent({
  type: 'StopCorrected',
  schema: z.object({ stopId: z.string().uuid(), deviceNo: z.string().min(1), before: stopTimes, after: stopTimes, note: z.string().min(1), by, at: instant }),
});

export const stopEventDefinitions = [StopReasonDefined, StopReasonChanged, StopStarted, StopEnded, StopCorrected] as const;
