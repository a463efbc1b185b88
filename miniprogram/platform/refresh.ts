/**
 * Pull-down refresh of a list page (`"enablePullDownRefresh": true` in its JSON, `onPullDownRefresh` in its
 * methods): the page reloads, then the platform's spinner stops, whether the reload worked or not.
 */

/** Runs `reload` and stops the pull-down spinner after it (module docstring). */
export async function pulledDown(reload: () => unknown): Promise<void> {
  try {
    await reload();
  } finally {
    wx.stopPullDownRefresh();
  }
}
