/**
 * The `stop_reasons` read model (migrations/020), inline, of the streams `stop-reason-<code>`: the shape of every
 * reason list (projections/reason-table.ts) on StopReasonDefined and StopReasonChanged.
 */
import { reasonTableProjection } from './reason-table.ts';

export const stopReasonsProjection = reasonTableProjection('stop-reasons', 'stop_reasons', 'StopReasonDefined', 'StopReasonChanged');
