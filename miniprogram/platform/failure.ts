/**
 * The sentence and next step of anything a page's call threw: an `ApiFailure` through core/errors.ts `nextStep`,
 * any other error by its message (the platform's own sentences, e.g. a failed `wx.login`).
 */
import { nextStep, type NextStep } from '../core/errors';
import { isFailure } from './request';

/** What to show after `err` (module docstring). */
export function stepOf(err: unknown): NextStep {
  if (isFailure(err)) return nextStep(err);
  const text = err instanceof Error && err.message ? err.message : '出了点问题，请稍后再试';
  return { action: 'none', text };
}
