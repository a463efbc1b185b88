/**
 * The app itself (miniprogram/app.ts, platform/update.ts): at launch it listens for a new version; when WeChat has
 * downloaded one, the person is asked, and only 重启 applies it; a failed download says what to do; a client without
 * `wx.getUpdateManager` launches as before. The app's code is the compiled package, loaded as WeChat loads it
 * (`App(options)`), with a scripted `wx`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ScriptedWx, buildMiniprogram, until } from './harness.ts';

const require = createRequire(import.meta.url);

/** A scripted update manager: the test fires its events; `applied` counts `applyUpdate()`. */
class UpdateManager {
  applied = 0;
  ready?: () => void;
  failed?: () => void;
  onCheckForUpdate() {}
  onUpdateReady(f: () => void) {
    this.ready = f;
  }
  onUpdateFailed(f: () => void) {
    this.failed = f;
  }
  applyUpdate() {
    this.applied++;
  }
}

/** Launches the compiled app with `wx` (plus `getUpdateManager` answering `manager`, when given). */
function launch(wx: ScriptedWx, manager?: UpdateManager): void {
  (globalThis as any).wx = { ...wx.api(), ...(manager ? { getUpdateManager: () => manager } : {}) };
  let options: { onLaunch?: () => void } | undefined;
  (globalThis as any).App = (o: typeof options) => (options = o);
  const file = join(buildMiniprogram(), 'app.js');
  delete require.cache[file];
  require(file);
  options!.onLaunch?.();
}

afterEach(() => {
  delete (globalThis as any).App;
});

it('asks when a new version is ready and applies it only when the person agrees', async () => {
  const later = new ScriptedWx();
  const m1 = new UpdateManager();
  later.modalAnswers = [false];
  launch(later, m1);
  m1.ready!();
  await until(() => later.modals.length === 1, 'the question');
  expect(later.modals).toEqual([{ title: '有新版本', content: '新版本已经准备好，重启小程序后使用。现在重启吗？', confirmText: '重启' }]);
  await new Promise((r) => setTimeout(r, 0)); // after the dialog's answer (delivered by a timer set before this one)
  expect(m1.applied).toBe(0);

  const now = new ScriptedWx();
  const m2 = new UpdateManager();
  launch(now, m2);
  m2.ready!();
  await until(() => m2.applied === 1, 'the update applied');
  m2.failed!();
  await until(() => now.modals.length === 2, 'the failure notice');
  expect(now.modals[1]).toEqual({ title: '新版本下载失败', content: '请检查网络，然后把小程序关掉再打开', confirmText: '知道了' });
});

it('launches on a client without wx.getUpdateManager', () => {
  expect(() => launch(new ScriptedWx())).not.toThrow();
});
