/**
 * The abandonment job (decisions.md "Clocking": an open session older than SESSION_MAX_HOURS is closed as
 * abandoned, so a forgotten clock-out never becomes a 30-hour report; the next scan says 开始上班).
 *
 * `abandonOverAgeSessions(ctx)` runs once: under the transaction-level advisory lock LOCKS.abandonSessions
 * (`runExclusive`: when another instance is running it, this one skips and returns `ran: false`), it finds the
 * over-age open sessions in the `sessions` read model and lets the worker decider close each one
 * (SessionAbandoned) at the clock's now. Each session has its own savepoint: a worker acting at that very
 * moment (stream version conflict) is skipped, never blocking the rest. The decider itself also treats an
 * over-age session as gone, so the rule holds to the second between runs.
 * Over age: active and clocked in more than SESSION_MAX_HOURS ago; or clocked out, window over, and clocked in
 * more than SESSION_MAX_HOURS ago (a 重新报工 the next morning would otherwise give the same long report).
 *
 * `startAbandonJob(ctx, schedule)` runs it by node-cron (default every minute) until `stop()`, which waits for a
 * run in progress.
 */
import cron from 'node-cron';
import type { AppContext } from '../context.ts';
import { abandonSession } from '../commands/clock/handlers.ts';
import { commandsIn } from '../commands/command.ts';
import { StreamVersionConflict } from '../events/store.ts';
import { LOCKS, runExclusive } from '../projections/leader.ts';

const BATCH = 500;
export const ABANDON_REASON = '超过最长上班时长未完成报工，系统自动结束';

export interface AbandonRun {
  /** False when another instance held the job's lock. */
  ran: boolean;
  /** Sessions closed in this run. */
  abandoned: number;
}

/**
 * Runs the abandonment job once (module docstring): under the job's advisory lock, closes up to 500 over-age open
 * sessions at the clock's now → `{ran, abandoned}` (`ran` false when another instance held the lock). A session
 * whose worker acts meanwhile is skipped; other per-session errors are logged, not thrown.
 */
export async function abandonOverAgeSessions(ctx: AppContext): Promise<AbandonRun> {
  let abandoned = 0;
  const ran = await runExclusive(ctx.db.pool, LOCKS.abandonSessions, async (tx) => {
    const now = ctx.clock.now();
    const cutoff = new Date(now.getTime() - ctx.config.sessionMaxMs);
    // In the workers' order (their streams' order, code units): the group commit takes workers' rows in that
    // order too (db/group-commit.ts), so this transaction and a batch of appends never wait for each other.
    const r = await tx.query(
      `SELECT session_id, employee_phone FROM (
         SELECT session_id, employee_phone FROM sessions WHERE status = 'active' AND clock_in_at < $1
         UNION ALL
         SELECT session_id, employee_phone FROM sessions WHERE status = 'reporting' AND expires_at < $2 AND clock_in_at < $1
       ) s ORDER BY employee_phone COLLATE "C" LIMIT ${BATCH}`,
      [cutoff, now],
    );
    // The job's commands read and write in its transaction, and read fresh state (no cache to poison if it rolls back).
    const inJob = { clockSettings: ctx.clockSettings, commands: commandsIn(ctx.commands, tx) };
    for (const row of r.rows) {
      await tx.query('SAVEPOINT abandon_one');
      try {
        if (await abandonSession(inJob, row.employee_phone, row.session_id, ABANDON_REASON)) abandoned++;
        await tx.query('RELEASE SAVEPOINT abandon_one');
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT abandon_one');
        if (!(err instanceof StreamVersionConflict)) ctx.log.error({ err, sessionId: row.session_id }, 'abandoning a session failed');
      }
    }
  });
  if (abandoned) ctx.log.info({ abandoned }, 'over-age sessions abandoned');
  return { ran, abandoned };
}

export interface RunningJob {
  stop(): Promise<void>;
}

/** Schedules the job (cron expression, default every minute); errors are logged, the next run retries. */
export function startAbandonJob(ctx: AppContext, schedule = '* * * * *'): RunningJob {
  let running: Promise<unknown> = Promise.resolve();
  const task = cron.schedule(
    schedule,
    () => {
      running = abandonOverAgeSessions(ctx).catch((err) => ctx.log.error({ err }, 'abandonment job failed'));
      return running;
    },
    { name: 'abandon-sessions', noOverlap: true },
  );
  return {
    async stop() {
      await task.stop();
      await task.destroy();
      await running;
    },
  };
}
