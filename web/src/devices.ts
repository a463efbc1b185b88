/**
 * Devices with the names of their products, and device codes as pictures with their caption:
 * the code image is the one the service stored (`/api/device-codes/<deviceKey>.png`, served without a token); the
 * caption is the device number and its products' names, printed under the code.
 */
import { allPages, api, unwrap } from './api/client';
import type { Device } from './api/types';

export interface DeviceWithProducts extends Device {
  /** Distinct product names of the device, in the list's order. */
  products: string[];
}

/** The address of a device's stored code; `version` makes the browser fetch it again after a new one. */
export const codeUrlOf = (d: Pick<Device, 'deviceKey'>, version = '') => `/api/device-codes/${d.deviceKey}.png${version ? `?v=${encodeURIComponent(version)}` : ''}`;

/** Every device with its products' names. */
export async function devicesWithProducts(): Promise<DeviceWithProducts[]> {
  const [devices, products] = await Promise.all([
    allPages((page, pageSize) => unwrap(api.GET('/api/devices', { params: { query: { page, pageSize } } }))),
    allPages((page, pageSize) => unwrap(api.GET('/api/products', { params: { query: { page, pageSize } } }))),
  ]);
  const names = new Map<string, Set<string>>();
  for (const p of products) {
    const set = names.get(p.deviceNo) ?? new Set<string>();
    set.add(p.productName);
    names.set(p.deviceNo, set);
  }
  return devices.map((d) => ({ ...d, products: [...(names.get(d.deviceNo) ?? [])] }));
}

/** `names` joined with 、, cut to about `max` characters with 等 N 种产品 when they do not fit. */
export function productCaption(names: string[], max: number): string {
  const all = names.join('、');
  if (all.length <= max) return all;
  let shown = 0;
  let len = 0;
  while (shown < names.length && len + names[shown].length + 1 <= max - 8) len += names[shown++].length + 1;
  return `${names.slice(0, Math.max(1, shown)).join('、')} 等 ${names.length} 种产品`;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('这台设备还没有生成小程序码'));
    img.src = src;
  });
}

/** Splits `text` into lines no wider than `width` on `ctx` (character by character: Chinese has no spaces). */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    if (ctx.measureText(line + ch).width > width && line) {
      lines.push(line);
      line = ch;
    } else line += ch;
  }
  if (line) lines.push(line);
  return lines;
}

/** The device's code as a PNG with its caption under it (device number, products' names). */
export async function captionedPng(d: DeviceWithProducts, version = ''): Promise<Blob> {
  const img = await loadImage(codeUrlOf(d, version));
  const W = 640;
  const pad = 40;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  const font = '"PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", "Noto Sans CJK SC", sans-serif';
  ctx.font = `28px ${font}`;
  const lines = wrap(ctx, productCaption(d.products, 90), W - 2 * pad).slice(0, 4);
  canvas.width = W;
  canvas.height = pad + (W - 2 * pad) + 70 + lines.length * 38 + pad;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, pad, pad, W - 2 * pad, W - 2 * pad);
  ctx.fillStyle = '#000';
  ctx.textAlign = 'center';
  ctx.font = `bold 44px ${font}`;
  let y = pad + (W - 2 * pad) + 56;
  // The device's workshop follows its number.
  ctx.fillText(d.workshopName ? `${d.deviceNo} · ${d.workshopName}` : d.deviceNo, W / 2, y, W - 2 * pad);
  ctx.font = `28px ${font}`;
  for (const l of lines) ctx.fillText(l, W / 2, (y += 38));
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('无法生成图片'))), 'image/png'));
}
