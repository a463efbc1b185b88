/**
 * New versions reach the phones (README "The mini-program", "Updates"): WeChat checks for a new version at each
 * cold start and downloads it in the background; without this a phone keeps the old version until WeChat drops it
 * from memory, often days later. When the new version is ready, the person is asked (重启 / 稍后); 重启 applies it
 * at once (`applyUpdate` restarts the mini-program: a 报工单's typed quantities are kept, platform/typed-store.ts),
 * 稍后 leaves it to the next cold start. A failed download says what to do. Old clients without
 * `wx.getUpdateManager` are left alone.
 */

/** Listens for a downloaded new version (module docstring); called once when the app launches. */
export function offerUpdates(): void {
  if (typeof wx.getUpdateManager !== 'function') return;
  const manager = wx.getUpdateManager();
  manager.onUpdateReady(() => {
    wx.showModal({
      title: '有新版本',
      content: '新版本已经准备好，重启小程序后使用。现在重启吗？',
      confirmText: '重启',
      cancelText: '稍后',
      success: (r) => {
        if (r.confirm) manager.applyUpdate();
      },
    });
  });
  manager.onUpdateFailed(() => {
    wx.showModal({
      title: '新版本下载失败',
      content: '请检查网络，然后把小程序关掉再打开',
      showCancel: false,
      confirmText: '知道了',
    });
  });
}
