/**
 * `npm run cli -- console-link <phone> [name] [--role admin|manager] [--roles admin,manager]`: a one-time link into the web
 * console, valid 10 minutes, for the first administrator before any mini-program is live.
 *
 * - PostgreSQL (whether the server runs or not): the link is written there (src/auth/web-login.ts
 *   `createConsoleLink`).
 * - The embedded database (never a second database, never a link to a server that is not there):
 *   - the server holds PGLITE_DIR: the CLI asks it over the local control channel (src/http/control-channel.ts:
 *     the secret of `<PGLITE_DIR>.control`, to 127.0.0.1 on the server's port);
 *   - no server holds PGLITE_DIR but exactly one server of this project runs on another folder (`data/run`): the
 *     CLI says so and asks that one; several: it refuses, naming each server's folder;
 *   - no server runs: with a database in PGLITE_DIR the link is written there, saying that the service must be
 *     started (within the link's 10 minutes) to use it; with none, it refuses rather than create one.
 * While personnel holds no administrator, giving the name adds the phone as the office's first person, 管理员 and 经理
 * (`--roles admin` or `--roles manager` gives one of them); `--role` chooses the role the link signs in as.
 * Prints the link (on PUBLIC_BASE_URL, else http://localhost:<port>); exit 0, 1 when refused, 2 on a usage error.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { ROLE_LABELS } from '../auth/roles.ts';
import { consoleLinkPath, createConsoleLink, type ConsoleRole } from '../auth/web-login.ts';
import { CONTROL_HEADER, readControlFile, runningServers, type ControlFile } from '../http/control-channel.ts';
import type { CliCommandSpec } from './cli-command.ts';

const USAGE = 'console-link <phone> [name] [--role admin|manager] [--roles admin,manager]';

interface LinkArgs {
  phone: string;
  name?: string;
  role?: ConsoleRole;
  roles?: ConsoleRole[];
}

const isConsoleRole = (v: string | undefined): v is ConsoleRole => v === 'admin' || v === 'manager';

/** The arguments (`--role`: the role signed in as; `--roles`: the roles a first person gets), or undefined when wrong. */
function parse(args: string[]): LinkArgs | undefined {
  const rest = [...args];
  const option = (flag: string): string | undefined | null => {
    const at = rest.indexOf(flag);
    return at < 0 ? undefined : (rest.splice(at, 2)[1] ?? null);
  };
  const role = option('--role');
  const roles = option('--roles');
  if (role === null || roles === null || (role !== undefined && !isConsoleRole(role))) return undefined;
  const list = roles?.split(',').map((r) => r.trim());
  if (list && (list.length === 0 || !list.every(isConsoleRole))) return undefined;
  if (rest.length < 1 || rest.length > 2 || rest.some((a) => a.startsWith('--'))) return undefined;
  return { phone: rest[0], name: rest[1], ...(role ? { role } : {}), ...(list ? { roles: list as ConsoleRole[] } : {}) };
}

interface LinkAnswer {
  path: string;
  expiresAt: string;
  person: { phone: string; name: string };
  role: ConsoleRole;
  added: boolean;
  addedRoles: ConsoleRole[];
}

function print(base: string, link: LinkAnswer): void {
  if (link.added) {
    console.log(`已把 ${link.person.name}（${link.person.phone}）添加为第一位${link.addedRoles.map((r) => ROLE_LABELS[r]).join('和')}。`);
  }
  console.log(`网页后台一次性登录链接（10 分钟内有效，只能使用一次，${link.expiresAt.slice(0, 16).replace('T', ' ')} 前）：`);
  console.log(`  ${base}${link.path}`);
  console.log(`登录身份：${link.person.name}（${link.person.phone}），${ROLE_LABELS[link.role]}`);
}

const usage = () => {
  console.error(`用法 / usage: ${USAGE}`);
  return 2;
};

const baseOf = (config: Config, port: number) => config.publicBaseUrl || `http://localhost:${port}`;

/** Asks the server of `control` for the link over its control channel; prints it. Exit 0, or 1 when refused. */
async function askServer(config: Config, control: ControlFile, a: LinkArgs): Promise<number> {
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
}

/** The embedded database's cases before it is opened (module docstring); undefined: open it and write the link. */
async function beforeOpen(config: Config, args: string[]): Promise<number | undefined> {
  if (config.database.kind !== 'pglite') return undefined;
  const a = parse(args);
  if (!a) return usage();
  const dir = resolve(config.database.dataDir);
  const servers = runningServers();
  // The server holds this folder: opening it is refused and `whileServerRuns` asks the server.
  if (servers.some((s) => s.dataDir === dir)) return undefined;
  if (servers.length === 1) {
    const [s] = servers;
    const control = readControlFile({ database: { kind: 'pglite', dataDir: s.dataDir } });
    if (control) {
      console.log(`没有服务使用 ${dir}；找到正在运行的服务（进程 ${s.pid}，端口 ${s.port}，数据目录 ${s.dataDir}），向它申请链接。`);
      return askServer(config, control, a);
    }
  }
  if (servers.length > 1) {
    console.error(
      `有 ${servers.length} 个服务在运行，都不使用 ${dir}：\n` +
        servers.map((s) => `  进程 ${s.pid}，端口 ${s.port}，数据目录 ${s.dataDir}`).join('\n') +
        '\n请用 PGLITE_DIR=<其中一个数据目录> npm run cli -- console-link … 指明要登录哪一个。',
    );
    return 1;
  }
  if (!existsSync(dir)) {
    console.error(
      `没有正在运行的服务，${dir} 也没有数据库，所以没有生成链接（不会新建数据库）：请先在项目目录运行 npm start，` +
        '或用 PGLITE_DIR 指明服务的数据目录，再运行本命令。',
    );
    return 1;
  }
  console.log(`注意：服务现在没有运行。链接写入 ${dir} 的数据库；请在 10 分钟内用这个数据目录启动服务（npm start），再打开链接。`);
  return undefined;
}

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
    beforeOpen,
    async whileServerRuns(config, args) {
      const a = parse(args);
      if (!a) return usage();
      const control = readControlFile(config);
      if (!control) {
        console.error('服务正在使用嵌入式数据库，但没有找到它的控制文件；请重启服务后再试。');
        return 1;
      }
      return askServer(config, control, a);
    },
  },
};
