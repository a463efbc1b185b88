/**
 * The scan button inside the app (`wx.scanCode`): what the code names (core/scene.ts `parseScanPath`).
 */
import { parseScanPath, type ScanTarget } from '../core/scene';

/** Scans with the camera; `cancelled` when the person closed the camera. */
export function scan(): Promise<ScanTarget | 'cancelled'> {
  return new Promise((resolve) => {
    wx.scanCode({
      onlyFromCamera: true,
      scanType: ['wxCode', 'qrCode'],
      success: (r) => resolve(parseScanPath((r as { path?: string }).path)),
      fail: (e) => resolve(/cancel/.test(e.errMsg ?? '') ? 'cancelled' : { kind: 'unknown', reason: '没有扫到码，请对准设备码再试' }),
    });
  });
}
