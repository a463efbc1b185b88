/** A command of `npm run cli` (src/cli/commands.ts lists them): runs with the service's context and the arguments; resolves with the exit code. */
import type { AppContext } from '../context.ts';

export type CliCommand = (ctx: AppContext, args: string[]) => Promise<number>;
