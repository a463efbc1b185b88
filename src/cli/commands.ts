/**
 * The commands of `npm run cli` (decisions.md "Command line"). Each area may add its own file under
 * src/cli/ and list its commands here.
 */
import { replayProjection } from '../projections/replay.ts';
import type { CliCommandSpec } from './cli-command.ts';
import { consoleLinkCommands } from './console-link.ts';
import { importCliCommands } from './import.ts';

export const cliCommands: Record<string, CliCommandSpec> = {
  ...importCliCommands,
  ...consoleLinkCommands,
  migrate: {
    usage: 'migrate',
    // Opening the database (createContext) has just applied any pending migration; this confirms it.
    async run(ctx) {
      const r = await ctx.db.pool.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
      console.log(`数据库结构已是最新 / schema up to date (latest migration: ${r.rows[0]?.name ?? 'none'})`);
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

