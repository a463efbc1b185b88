import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createPlatform } from '../../src/platform/index.ts';

const log = createLogger('silent');
const clock = new ManualClock();

describe('createPlatform', () => {
  it('without WX_APPID: the client talks to a simulator on a loopback port, closed with the client', async () => {
    const { platform, simulator } = await createPlatform(loadConfig({}), clock, log);
    expect(simulator!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const s = await platform.code2Session('sim:someone');
    expect(s.openid).toBe(simulator!.openidFor('someone'));
    await platform.close();
    await expect(fetch(`${simulator!.url}/sns/jscode2session`)).rejects.toThrow();
  });

  it('with WX_APPID: the real client for the configured origin and no simulator', async () => {
    const config = loadConfig({ WX_APPID: 'wx123', WX_SECRET: 's', WX_API_BASE: 'http://127.0.0.1:9' });
    const { platform, simulator } = await createPlatform(config, clock, log);
    expect(simulator).toBeUndefined();
    expect(platform.appId).toBe('wx123');
  });

  it('refuses to start the simulator in production', async () => {
    const config = { ...loadConfig({}), production: true };
    await expect(createPlatform(config, clock, log)).rejects.toThrow(/NODE_ENV=production/);
  });
});
