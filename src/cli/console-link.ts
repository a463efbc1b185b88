/**
 * `npm run cli -- console-link <phone> [name] [--role admin|manager]` (issue #17): a one-time link into the web
 * console, valid 10 minutes, for the first administrator before any mini-program is live.
 *
 * - The database can be opened (PostgreSQL, whether the server runs or not; or the embedded database while no
 *   server holds it): the link is written there (src/auth/web-login.ts `createConsoleLink`).
 * - The server holds the embedded database: the CLI asks it over the local control channel
 *   (src/http/control-channel.ts: the secret of `<PGLITE_DIR>.control`, to 127.0.0.1 on the server's port).
 * While personnel holds no administrator, giving the name adds the phone as the first administrator.
 * Prints the link (on PUBLIC_BASE_URL, else http://localhost:<port>); exit 0, 1 when refused, 2 on a usage error.
 */
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { ROLE_LABELS } from '../auth/roles.ts';
import { consoleLinkPath, createConsoleLink, type ConsoleRole } from '../auth/web-login.ts';
import { CONTROL_HEADER, readControlFile } from '../http/control-channel.ts';
import type { CliCommandSpec } from './cli-command.ts';

const USAGE = 'console-link <phone> [name] [--role admin|manager]';

interface LinkArgs {
  phone: string;
  name?: string;
  role?: ConsoleRole;
}

function parse(args: string[]): LinkArgs | undefined {
  const rest = [...args];
  let role: ConsoleRole | undefined;
  const at = rest.indexOf('--role');
  if (at >= 0) {
    const v = rest.splice(at, 2)[1];
    if (v !== 'admin' && v !== 'manager') return undefined;
    role = v;
  }
  if (rest.length < 1 || rest.length > 2 || rest.some((a) => a.startsWith('--'))) return undefined;
  return { phone: rest[0], name: rest[1], role };
}

interface LinkAnswer {
  path: string;
  expiresAt: string;
  person: { phone: string; name: string };
  role: ConsoleRole;
  added: boolean;
}

function print(base: string, link: LinkAnswer): void {
  if (link.added) console.log(`已把 ${link.person.name}（${link.person.phone}）添加为第一位管理员。`);
  console.log(`网页后台一次性登录链接（10 分钟内有效，只能使用一次，${link.expiresAt.slice(0, 16).replace('T', ' ')} 前）：`);
  console.log(`  ${base}${link.path}`);
  console.log(`登录身份：${link.person.name}（${link.person.phone}），${ROLE_LABELS[link.role]}`);
}

const usage = () => {
  console.error(`用法 / usage: ${USAGE}`);
  return 2;
};

const baseOf = (config: Config, port: number) => config.publicBaseUrl || `http://localhost:${port}`;

export const consoleLinkCommands: Record<string, CliCommandSpec> = {
  'console-link': {
    usage: USAGE,
    async run(ctx, args) {
      const a = parse(args);
      if (!a) return usage();
      try {
        const { ticket, ...link } = await createConsoleLink(ctx, a);
        print(baseOf(ctx.config, ctx.config.port), { path: consoleLinkPath(ticket), ...link });
        return 0;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        console.error(err.message);
        return 1;
      }
    },
    async whileServerRuns(config, args) {
      const a = parse(args);
      if (!a) return usage();
      const control = readControlFile(config);
      if (!control) {
        console.error('服务正在使用嵌入式数据库，但没有找到它的控制文件；请重启服务后再试。');
        return 1;
      }
      const res = await fetch(`http://127.0.0.1:${control.port}/api/auth/console-link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CONTROL_HEADER]: control.secret },
        body: JSON.stringify(a),
      });
      const body = (await res.json()) as LinkAnswer & { error?: { message: string } };
      if (!res.ok) {
        console.error(body.error?.message ?? `服务回答 ${res.status}`);
        return 1;
      }
      print(baseOf(config, control.port), body);
      return 0;
    },
  },
};
