/**
 * Which service the mini-program talks to: `config.servers[<running version>]` (config.ts). The running version
 * comes from `wx.getAccountInfoSync()`; where that is not available (an old base library), 开发版.
 */
import { config, type EnvVersion } from '../config';

/** The running version of the mini-program. */
export function envVersion(): EnvVersion {
  try {
    const v = wx.getAccountInfoSync().miniProgram.envVersion as string;
    return v === 'trial' || v === 'release' ? v : 'develop';
  } catch {
    return 'develop';
  }
}

/** The service's origin for the running version, without a trailing slash. */
export const serverUrl = (): string => config.servers[envVersion()].replace(/\/+$/, '');
