/**
 * `npm start`: the service. Reads and checks the environment (src/config.ts), waits for PostgreSQL when it is not
 * reachable yet (src/startup-checks.ts, up to DATABASE_WAIT_SECONDS with backoff), opens it or the embedded
 * PGlite (keeping its token key when JWT_SECRET is not set: auth/kept-secret.ts), migrates, listens on PORT. In production it then checks the platform credentials (`stable_token`) and
 * logs a clear error when they fail. SIGINT/SIGTERM shut it down gracefully. With API_PROCESSES > 1 this process
 * is the primary of that many API processes sharing the port (src/cluster.ts), each of which runs the service.
 * A start that cannot go on prints one Chinese + English line per problem (no stack trace) and exits with 1.
 */
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/database.ts';
import { startService } from './app.ts';
import { isClusterWorker, runPrimary } from './cluster.ts';
import { createLogger } from './logger.ts';
import { withKeptJwtSecret } from './auth/kept-secret.ts';
import { StartupError, probePlatform, waitForDatabase } from './startup-checks.ts';
import { openControlChannel, registerRunningServer } from './http/control-channel.ts';

async function main(): Promise<void> {
  // Without JWT_SECRET the embedded database's installation keeps its key (a cluster worker gets the primary's).
  const config = isClusterWorker() ? loadConfig() : withKeptJwtSecret(loadConfig());
  if (!isClusterWorker()) {
    const log = createLogger(config.logLevel);
    if (config.production) {
      void probePlatform(config, log).then((p) => {
        if (!p.ok) log.error({ check: 'platform' }, `微信平台凭证检查失败，员工将无法登录 / platform credential check failed, logins will fail: ${p.detail}`);
      });
    }
    await waitForDatabase(config, log);
    if (config.apiProcesses > 1) process.exit(await runPrimary(config, log));
  }
  const service = await startService(config);
  const { log } = service.ctx;
  // The CLI's way in while this process holds the embedded database (npm run cli -- console-link).
  const control = openControlChannel(config, service.port);
  // …and where a CLI run without this PGLITE_DIR finds it.
  let registered = { close() {} };
  try {
    registered = registerRunningServer(config, service.port);
  } catch (err) {
    log.warn({ err }, `无法登记到 ${process.cwd()}/data/run：不带 PGLITE_DIR 运行的 npm run cli -- console-link 找不到本服务 / could not register in data/run`);
  }
  log.info(
    { port: service.port, database: service.ctx.db.kind, platform: config.platform ? 'wechat' : 'simulator' },
    `报工服务已启动 http://localhost:${service.port}/console/（网页后台），接口文档 /api/docs`,
  );
  // Started with an IPC channel (a process manager, the benchmark) and not as a cluster worker: say so.
  if (!isClusterWorker()) process.send?.({ type: 'ready', port: service.port });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    control.close();
    registered.close();
    service.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (!isClusterWorker() && process.connected) process.on('disconnect', () => stop('the parent process ended'));
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(`配置错误 / configuration error:\n${err.message.replace(/^/gm, '  ')}`);
  else if (err instanceof StartupError || err instanceof DataDirLockedError) console.error(err.message);
  else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`端口已被占用 / port ${process.env.PORT ?? 3000} is in use: stop the other program or set PORT=<free port>`);
  else console.error(err);
  process.exit(1);
});
