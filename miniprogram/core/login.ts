/**
 * The phone button's outcome (a refused phone authorization, a missing code and the platform's
 * quota error each get a sentence a worker can act on). Plain TypeScript, no `wx`.
 *
 * `<button open-type="getPhoneNumber">` hands `detail` = `{code}` when the person agreed, or `{errMsg, errno?}`:
 * `getPhoneNumber:fail user deny` (refused), errno 1400001 (the mini-program's quota of phone verifications is used
 * up), or no code at all (an old WeChat).
 */

export type PhoneOutcome = { ok: true; phoneCode: string } | { ok: false; text: string };

/** The platform's errno of a used-up phone verification quota. */
export const PHONE_QUOTA_ERRNO = 1400001;

/** What the phone button's `detail` means. */
export function phoneOutcome(detail: { code?: string; errMsg?: string; errno?: number } | undefined): PhoneOutcome {
  if (detail?.code) return { ok: true, phoneCode: detail.code };
  const msg = detail?.errMsg ?? '';
  if (detail?.errno === PHONE_QUOTA_ERRNO || msg.includes('1400001')) {
    return { ok: false, text: '今天用手机号登录的人数已达上限，请让管理员联系小程序管理员增加额度，或明天再试' };
  }
  if (/deny|cancel/i.test(msg)) return { ok: false, text: '需要你的手机号才能确认你是谁：请再点一次“手机号登录”并选择“允许”' };
  if (/ok$/.test(msg) || msg === '') return { ok: false, text: '没有取得手机号授权凭证：请把微信更新到最新版本后再试' };
  return { ok: false, text: '没有取得手机号：请检查网络后再点一次“手机号登录”' };
}

/** Sentence when `wx.login` gives no code. */
export const NO_LOGIN_CODE = '微信登录没有成功：请检查网络后再点一次“手机号登录”';

/** The Chinese name of a role (src/auth/roles.ts ROLE_LABELS). */
export const ROLE_NAMES: Record<string, string> = { worker: '员工', admin: '管理员', manager: '经理' };

/** The Chinese name of a report status. */
export const STATUS_NAMES: Record<string, string> = { pending: '待审核', approved: '已通过', rejected: '已驳回' };

/**
 * The platform simulator's codes for a login as `phone` (decisions.md "Platform simulator": codes work once, so
 * each login adds `#<nonce>`): `code` `sim:mp-<phone>#<nonce>` (a stable openid per phone), `phoneCode`
 * `sim:<phone>#<nonce>`.
 */
export function simulatorCodes(phone: string, nonce: string): { code: string; phoneCode: string } {
  return { code: `sim:mp-${phone}#${nonce}`, phoneCode: `sim:${phone}#${nonce}` };
}

/** Whether `text` is an 11-digit mainland mobile number. */
export const isPhone = (text: string): boolean => /^1\d{10}$/.test(text.trim());
