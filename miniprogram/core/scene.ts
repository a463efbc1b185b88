/**
 * Scene and scan-path parsing (decisions.md "Device codes"; README "Sign-in: scan with the
 * mini-program"). Plain TypeScript, no `wx`.
 *
 * A code's scene (as the service made it, src/platform/device-codes.ts `sceneFor`, src/auth/web-login.ts,
 * src/platform/work-order-tickets.ts `ticketSceneFor`) is one of `deviceNo=<encodeURIComponent(device number)>`,
 * `d=<device key>`, `w=<web-login key>` or `o=<work order key>` (a work ticket, 工票: the key of the order number,
 * core/sha256.ts `codeKeyOf`; the 报工单 matches it against its orders). The service makes a
 * `deviceNo=` scene only when it fits the platform's scene alphabet, which has no `%`: so the value of a raw
 * scene is the device number itself (encodeURIComponent left it as it was), and a device number with a space,
 * Chinese or `%` always travels as `d=<key>`.
 *
 * WeChat hands a scene over in two forms:
 * - `onLoad(options)` of a page opened by a code: `options.scene` is the scene URL-encoded once
 *   (`deviceNo%3DK-12`);
 * - `wx.scanCode` inside the app: `path` is `pages/clock/clock?scene=<scene>`, the scene not encoded
 *   (`deviceNo=K-12`) or, on some clients, encoded once.
 * A raw scene never holds `%`, so a scene that holds one is the encoded form: it is decoded exactly once, never
 * twice (decoding twice would turn a `%25` of a device number into a different number).
 */

/** What a scanned code names. */
export type ScanTarget =
  | { kind: 'device'; ref: DeviceRef; scene: string }
  | { kind: 'webLogin'; key: string; scene: string }
  | { kind: 'workOrder'; key: string; scene: string }
  | { kind: 'unknown'; reason: string };

/** A scanned device as the clock endpoints take it: exactly one of the number and the key. */
export type DeviceRef = { deviceNo: string } | { deviceKey: string };

/** The raw scene of a scene as WeChat handed it (either form); undefined when it cannot be decoded. */
export function rawScene(scene: string): string | undefined {
  if (!scene.includes('%')) return scene;
  try {
    return decodeURIComponent(scene);
  } catch {
    return undefined;
  }
}

/**
 * What the scene `scene` (`options.scene`, encoded or raw) names. An unknown or damaged scene gives
 * `{kind: 'unknown', reason}` with a sentence for the worker.
 */
export function parseScene(scene: string | undefined | null): ScanTarget {
  if (!scene) return { kind: 'unknown', reason: '没有读到设备码，请扫描机器上的设备码' };
  const raw = rawScene(scene.trim());
  if (raw === undefined) return { kind: 'unknown', reason: '设备码内容无法识别，请重新扫描' };
  const eq = raw.indexOf('=');
  const name = eq < 0 ? '' : raw.slice(0, eq);
  const value = eq < 0 ? '' : raw.slice(eq + 1);
  if (value === '') return { kind: 'unknown', reason: '这不是本厂的设备码，请扫描机器上的设备码' };
  if (name === 'deviceNo') return { kind: 'device', ref: { deviceNo: value }, scene: raw };
  if (name === 'd') return { kind: 'device', ref: { deviceKey: value }, scene: raw };
  if (name === 'w') return { kind: 'webLogin', key: value, scene: raw };
  if (name === 'o') return { kind: 'workOrder', key: value, scene: raw };
  return { kind: 'unknown', reason: '这不是本厂的设备码，请扫描机器上的设备码' };
}

/**
 * What a path of `wx.scanCode` names (`pages/clock/clock?scene=deviceNo=K-12`, the scene raw or encoded once).
 * The scene is everything after `scene=` up to the next `&` (a raw scene has no `&`: the service never makes one).
 * A path without a scene: unknown.
 */
export function parseScanPath(path: string | undefined | null): ScanTarget {
  if (!path) return { kind: 'unknown', reason: '这不是设备码，请扫描机器上的设备码' };
  const q = path.indexOf('?');
  const query = q < 0 ? '' : path.slice(q + 1);
  const m = /(?:^|&)scene=([^&]*)/.exec(query);
  if (!m) return { kind: 'unknown', reason: '这不是设备码，请扫描机器上的设备码' };
  return parseScene(m[1]);
}

/** The query of a page address that opens `scene` as a code would (`scene=<encoded once>`). */
export const sceneQuery = (scene: string): string => `scene=${encodeURIComponent(scene)}`;

/** The device a scene names (either form), or undefined when it names none. */
export function deviceRefOf(scene: string): DeviceRef | undefined {
  const t = parseScene(scene);
  return t.kind === 'device' ? t.ref : undefined;
}
