/**
 * The commands of `npm run cli` (decisions.md "Command line"). Each area may add its own file under
 * src/cli/ and list its commands here.
 */
import type { AppContext } from '../context.ts';
import { replayProjection } from '../projections/replay.ts';
import { importCliCommands } from './import.ts';

export type CliCommand = (ctx: AppContext, args: string[]) => Promise<number>;

export const cliCommands: Record<string, { usage: string; run: CliCommand }> = {
  ...importCliCommands,
  migrate: {
    usage: 'migrate',
    async run(ctx) {
      console.log('migrations are up to date');
      void ctx;
      return 0;
    },
  },
  replay: {
    usage: 'replay [projection]',
    async run(ctx, args) {
      const wanted = args[0];
      const list = wanted ? ctx.projections.filter((p) => p.name === wanted) : ctx.projections;
      if (wanted && list.length === 0) {
        console.error(`unknown projection "${wanted}"; known: ${ctx.projections.map((p) => p.name).join(', ') || '(none)'}`);
        return 2;
      }
      for (const p of list) {
        const started = Date.now();
        const n = await replayProjection(ctx.db.pool, ctx.store, p);
        console.log(`${p.name}: ${n} events replayed in ${Date.now() - started} ms`);
      }
      return 0;
    },
  },
};

