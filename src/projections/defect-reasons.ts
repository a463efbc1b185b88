/**
 * The `defect_reasons` read model (migrations/018), inline: written by the reason commands' own statements, so a
 * submission's facts read a new or deactivated reason at once. The shape of every reason list
 * (projections/reason-table.ts): DefectReasonDefined writes the row (active); DefectReasonChanged rewrites name,
 * category and active, keeping `defined_at` (it reads the row).
 */
import { reasonTableProjection } from './reason-table.ts';

export const defectReasonsProjection = reasonTableProjection('defect-reasons', 'defect_reasons', 'DefectReasonDefined', 'DefectReasonChanged');
