/**
 * What keeps one gloved double tap from changing a worker's day on the scan page (pages/clock/clock; README "The
 * mini-program", "A double tap"): after an operation changes the label, the new button is held for `HOLD_MS`
 * (shown disabled, `下班报工（请稍候）`), so the second tap of a double tap lands on a held button and does nothing;
 * and the two labels that end the working time, 下班报工 and 重新报工, ask first, naming the clock-in time. Plain
 * TypeScript, no `wx`.
 */
import type { ClockLabel } from './labels';
import { clockInText } from './time';

/** How long the new button stays held after an operation changed the label, in milliseconds. */
export const HOLD_MS = 1500;

/**
 * Milliseconds the button held since `heldAt` is still held at `now` (both milliseconds since the epoch, the
 * phone's clock); 0 when it is free. Never held before anything was held (`heldAt` 0) or when the phone's clock
 * went back past `heldAt` (a clock set back must not hold the button for longer).
 */
export function holdLeft(heldAt: number, now: number): number {
  if (!(heldAt > 0) || now < heldAt) return 0;
  return Math.max(0, HOLD_MS - (now - heldAt));
}

/** A question before an operation (`wx.showModal`: `confirmText` at most 4 characters). */
export interface Confirmation {
  title: string;
  content: string;
  confirmText: string;
}

/**
 * The question asked before `label`'s operation, or undefined when it needs none (开始上班, 换设备: nothing ends).
 * `clockInAt` is the session's clock-in instant as the service wrote it (`GET /api/clock/state`, the operations'
 * answers; undefined when not known: then the question names no time); `nowMs` the phone's clock (milliseconds since
 * the epoch: a clock-in on another day of the factory's calendar is named with its date).
 */
export function confirmationOf(label: ClockLabel, clockInAt: string | undefined, nowMs: number): Confirmation | undefined {
  if (label !== '下班报工' && label !== '重新报工') return undefined;
  const since = clockInAt ? `上班时间 ${clockInText(clockInAt, nowMs)}，` : '';
  return label === '下班报工'
    ? { title: '确认下班', content: `${since}确定下班报工吗？`, confirmText: '下班报工' }
    : { title: '确认重新报工', content: `${since}确定重新报工吗？下班时间将改为现在。`, confirmText: '重新报工' };
}
