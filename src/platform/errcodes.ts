/**
 * Platform failures as answers a person can act on ("each a clear 4xx to the client"). The one
 * place where a `PlatformError` errcode or an `OpenDataError` becomes an `AppError` status, code and Chinese
 * message. `step` says which platform call failed, since the same errcode means different things per API
 * (40029: an invalid login code for jscode2session, an invalid phone credential for getuserphonenumber).
 */
import { AppError } from '../errors.ts';
import { OpenDataError } from './crypto.ts';
import { PlatformError } from './types.ts';

export type PlatformStep = 'login' | 'phone' | 'phoneData' | 'qrcode';

const unavailable = () => new AppError(503, 'PLATFORM_UNAVAILABLE', '微信服务暂时不可用，请稍后重试');

/**
 * The AppError for a failure of platform `step`; errors that are not platform errors are returned unchanged.
 * `page` is the mini-program page a code was asked for (named when the platform does not know it).
 */
export function platformFailure(err: unknown, step: PlatformStep, page = 'pages/clock/clock'): unknown {
  if (err instanceof OpenDataError) {
    if (err.reason === 'foreign_app') return new AppError(400, 'PHONE_DATA_FOREIGN_APP', '手机号数据不属于本小程序，请在本小程序内重新授权手机号');
    return new AppError(400, 'PHONE_DATA_INVALID', '手机号数据无法解密，请重新授权手机号后再登录');
  }
  if (!(err instanceof PlatformError)) return err;
  const { errcode } = err;
  if (errcode === -1) return unavailable();
  if (errcode === 45011 || errcode === 45009) {
    return new AppError(429, 'PLATFORM_RATE_LIMITED', step === 'qrcode' ? '生成小程序码太频繁，请一分钟后再试' : '登录太频繁，请一分钟后再试');
  }
  if (step === 'login') {
    if (errcode === 40029) return new AppError(401, 'LOGIN_CODE_INVALID', '登录凭证无效，请重新打开小程序登录');
    if (errcode === 40163) return new AppError(401, 'LOGIN_CODE_USED', '登录凭证已使用过，请重新登录');
    if (errcode === 40226) return new AppError(403, 'WECHAT_USER_BLOCKED', '该微信账号被微信判定为高风险，暂时无法登录，请更换微信或联系管理员');
  }
  if (step === 'phone' && (errcode === 40029 || errcode === 40163)) {
    return new AppError(401, 'PHONE_CODE_INVALID', '手机号授权已失效，请重新授权手机号后再登录');
  }
  if (step === 'qrcode' && errcode === 41030) {
    return new AppError(502, 'PLATFORM_PAGE_NOT_FOUND', `小程序页面 ${page} 不存在或尚未发布，请发布小程序或设置 WX_ENV_VERSION`);
  }
  return new AppError(502, 'PLATFORM_ERROR', `微信服务返回错误（${errcode}），请稍后重试或联系管理员`);
}
