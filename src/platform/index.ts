/**
 * Builds the service's platform: with credentials (`WX_APPID`, `WX_SECRET`, `WX_API_BASE`) the
 * axios client talks to the real API; without them the simulator is started on a loopback port and the same
 * client talks to it (never in production: config.ts refuses a production start without `WX_APPID`, and this
 * function refuses too). `close()` of the returned platform stops the simulator it started.
 */
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { WxPlatformClient } from './client.ts';
import { PlatformSimulator } from './simulator.ts';

export interface BuiltPlatform {
  platform: WxPlatformClient;
  /** Present when the simulator is used; tests use it to force errors. */
  simulator?: PlatformSimulator;
}

/** The platform client for `config` (module docstring). Throws when the simulator would run in production. */
export async function createPlatform(config: Config, clock: Clock, log: Logger): Promise<BuiltPlatform> {
  const pl = log.child({ component: 'platform' });
  if (config.platform) {
    const platform = new WxPlatformClient({ ...config.platform, clock, log: pl, timeZone: config.timeZone, envVersion: config.wxEnvVersion });
    return { platform };
  }
  if (config.production) throw new Error('the platform simulator is not allowed when NODE_ENV=production; set WX_APPID and WX_SECRET');
  const simulator = new PlatformSimulator({ clock });
  const apiBase = await simulator.start();
  pl.info({ apiBase }, 'WX_APPID is not set: using the built-in platform simulator');
  const platform = new WxPlatformClient({
    appId: simulator.appId,
    secret: simulator.secret,
    apiBase,
    clock,
    log: pl,
    timeZone: config.timeZone,
    envVersion: config.wxEnvVersion,
    retryDelaysMs: [20, 50],
    onClose: () => simulator.close(),
  });
  return { platform, simulator };
}
