/** The shape of a command of `npm run cli` (src/cli/commands.ts lists them). */
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';

/** Runs with the service's context and the arguments; resolves with the exit code. */
export type CliCommand = (ctx: AppContext, args: string[]) => Promise<number>;

export interface CliCommandSpec {
  usage: string;
  run: CliCommand;
  /**
   * Run first, before the database is opened: an exit code ends the command there (it was answered another way, or
   * refused); undefined goes on to open the database and `run`.
   */
  beforeOpen?: (config: Config, args: string[]) => Promise<number | undefined>;
  /** Run instead of `run` when the server holds the embedded database (it asks the server). */
  whileServerRuns?: (config: Config, args: string[]) => Promise<number>;
}
