/**
 * The action labels of spec 3.1, exact interface values: the one label a worker's scan answers
 * (domain/clock.ts decides which).
 */
export const LABELS = {
  start: '开始上班',
  switchDevice: '换设备',
  finish: '下班报工',
  continueReport: '继续报工',
  reReport: '重新报工',
} as const;

export type ClockLabel = (typeof LABELS)[keyof typeof LABELS];
export const ALL_LABELS = Object.values(LABELS) as [ClockLabel, ...ClockLabel[]];
