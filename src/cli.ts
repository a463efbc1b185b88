/**
 * `npm run cli -- <command>`: maintenance from the shell (see src/cli/commands.ts for the commands).
 * Opens the configured database (with the embedded one, refuses while the server holds its folder), except
 * `doctor` (src/cli/doctor.ts), which checks the configuration and what the service depends on without opening
 * anything for writing, and a command whose `beforeOpen` answers first (console-link finding a running server).
 */
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/database.ts';
import { createContext } from './app.ts';
import { cliCommands } from './cli/commands.ts';
import { runDoctor } from './cli/doctor.ts';

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'doctor') return runDoctor(process.env, (line) => console.log(line));
  const cmd = name && Object.hasOwn(cliCommands, name) ? cliCommands[name] : undefined;
  if (!cmd) {
    console.error('usage: npm run cli -- <command>\n  doctor\n' + Object.values(cliCommands).map((c) => `  ${c.usage}`).join('\n'));
    return 2;
  }
  const config = loadConfig();
  const answered = await cmd.beforeOpen?.(config, args);
  if (answered !== undefined) return answered;
  let ctx;
  try {
    ctx = await createContext({ ...config, logLevel: process.env.LOG_LEVEL ?? 'warn' });
  } catch (err) {
    // The server holds the embedded database: a command that can ask it instead does so.
    if (err instanceof DataDirLockedError && cmd.whileServerRuns) return cmd.whileServerRuns(config, args);
    throw err;
  }
  try {
    return await cmd.run(ctx, args);
  } finally {
    await ctx.db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof ConfigError) console.error(`配置错误 / configuration error:\n${err.message.replace(/^/gm, '  ')}`);
    else if (err instanceof DataDirLockedError) console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
