/**
 * `npm run worker-report -- <phone> <deviceNo> [--base http://localhost:3000]`: what a worker's
 * mini-program does for one shift, through the HTTP API of a running service that uses the platform simulator (no
 * WX_APPID), so that the console's 审核 page has a report to review: log in (`sim:` credentials), scan the device
 * (开始上班, then 下班报工), take the draft and submit the first two candidate products with some quantities.
 * The person must be a worker in personnel (add them on the console's 人员 page). The shift is as long as the
 * script takes (a few seconds); the break starts at min(DEFAULT_BREAK_MINUTES, minutes worked) = 0.
 * Prints the report; exit 0, or 1 with the service's Chinese message.
 */
const args = process.argv.slice(2);
const at = args.indexOf('--base');
const base = (at >= 0 ? args.splice(at, 2)[1] : `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
const [phone, deviceNo] = args;

class Refused extends Error {}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Refused(`连不上服务 ${base}：请先运行 npm start（或用 --base 指定地址）`);
  }
  const answer: any = await res.json().catch(() => ({}));
  if (!res.ok) throw new Refused(`${method} ${path} → ${res.status} ${answer?.error?.code ?? ''}：${answer?.error?.message ?? ''}`);
  return answer;
}

async function main(): Promise<void> {
  if (!phone || !deviceNo) {
    console.error('用法 / usage: npm run worker-report -- <手机号> <设备编号> [--base http://localhost:3000]');
    process.exit(2);
  }
  const n = `${Date.now().toString(36)}`;
  let login = await call('POST', '/api/auth/platform-login', { code: `sim:worker-${phone}#${n}`, phoneCode: `sim:${phone}#${n}` });
  if (login.status !== 'ok') login = await call('POST', '/api/auth/platform-login/complete', { ticket: login.ticket, phone, role: 'worker' });
  if (login.role !== 'worker') throw new Refused(`${phone} 不是员工：请在网页后台「人员」中为他添加「员工」角色`);
  const token: string = login.token;
  console.log(`员工 ${login.person.name}（${phone}）已登录`);
  const q = `deviceNo=${encodeURIComponent(deviceNo)}`;
  let state = await call('GET', `/api/clock/state?${q}`, undefined, token);
  if (state.label === '开始上班') {
    await call('POST', '/api/clock/start', { deviceNo }, token);
    console.log(`开始上班：${deviceNo}`);
    state = await call('GET', `/api/clock/state?${q}`, undefined, token);
  }
  if (state.label === '换设备') await call('POST', '/api/clock/switch-device', { deviceNo }, token);
  const finish = await call('POST', '/api/clock/finish', { deviceNo }, token);
  console.log('下班报工');
  const draft = await call('GET', `/api/reports/draft?sessionId=${finish.sessionId}`, undefined, token);
  const lines = draft.candidates.slice(0, 2).map((c: { productId: number }, i: number) => ({ productId: c.productId, finishedQty: 120 - 40 * i, defectiveQty: 3 - i }));
  if (lines.length === 0) throw new Refused(`设备 ${deviceNo} 没有产品：请先导入产品清单`);
  const report = await call('POST', '/api/reports', { sessionId: finish.sessionId, lines }, token);
  for (const [i, l] of lines.entries()) console.log(`  ${draft.candidates[i].productName}（${draft.candidates[i].processName}）成品 ${l.finishedQty} 不良 ${l.defectiveQty}`);
  console.log(`已提交报工单 ${report.reportId}（${report.reportDate}），请在网页后台「审核」中审核`);
}

main().catch((err) => {
  console.error(err instanceof Refused ? err.message : err);
  process.exit(1);
});
