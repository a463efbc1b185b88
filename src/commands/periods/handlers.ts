/**
 * Closing and reopening a month, each in a transaction of its own:
 *
 *   1. take the month's lock EXCLUSIVE (migrations/011 `lock_month_exclusive`): wait until every write into the
 *      month holding it SHARED (approvals, corrections, rejections, break changes, rates from a date in it,
 *      submissions dated in it: commands/facts.ts) has committed; every later one waits for this transaction and
 *      then reads the month closed;
 *   2. read the close's facts in new statements (close-facts.ts: their snapshots include every write of step 1);
 *   3. one `runCommand` of the period decider on `period-<YYYY-MM>` reading and appending through the transaction
 *      (commandsIn): PeriodClosed with the figures (or the refusal, which rolls everything back), whose inline row
 *      (`periods`) the writes of step 1 read;
 *   4. commit, which lets the waiting writes go on, to their refusal.
 * So a close racing an approval ends with the approval in the closed figures or refused (PERIOD_CLOSED), never
 * after the close and outside them; the same on any number of API instances sharing the database.
 *
 * Only a manager of the whole factory closes or reopens (README "审核范围"): a close's figures and
 * its refusal's blocker list are the whole factory's, which a scoped manager must not see nor settle. A manager
 * with a scope gets 403 CLOSE_NEEDS_WHOLE_FACTORY, read in the close's transaction before anything else.
 */
import type pg from 'pg';
import { domainError } from '../../domain/errors.ts';
import { hasNarrowScopeSql } from '../../domain/scope.ts';
import { withTransaction } from '../../db/transaction.ts';
import { streams } from '../../events/catalog.ts';
import type { Actor } from '../../shared/actor.ts';
import { localDate } from '../../time.ts';
import { commandsIn, runCommand, type CommandDeps } from '../command.ts';
import { closeFacts } from './close-facts.ts';
import { periodDecider, type PeriodCommand } from './decider.ts';

/** What closing and reopening need: the command path, the pool their transactions run on, APP_TIMEZONE. */
export interface PeriodDeps {
  readonly commands: CommandDeps;
  readonly pool: pg.Pool;
  readonly timeZone: string;
}

export interface CloseAnswer {
  month: string;
  status: 'closed';
  version: number;
  closedAt: Date;
  closedBy: { phone: string; name: string | null };
  /** Fen. */
  amountFen: bigint;
  workers: number;
}

export interface ReopenAnswer {
  month: string;
  status: 'open';
  version: number;
}

/** Throws CLOSE_NEEDS_WHOLE_FACTORY when `actor` has a scope in its role (`scopes`, migrations/015). */
async function mustBeWholeFactory(tx: pg.PoolClient, actor: Actor): Promise<void> {
  const r = await tx.query(`SELECT ${hasNarrowScopeSql('$1', '$2')} AS narrow`, [actor.phone, actor.role]);
  if (r.rows[0].narrow) throw domainError('CLOSE_NEEDS_WHOLE_FACTORY');
}

/** Runs the period decider on `month` for `actor` inside `tx`; `command` given the instant. */
function decide(deps: PeriodDeps, tx: pg.PoolClient, actor: Actor, month: string, command: (now: Date) => PeriodCommand) {
  return runCommand(commandsIn(deps.commands, tx), actor, {
    decider: periodDecider,
    stream: { streamId: streams.period(month), fold: periodDecider },
    command: (_, now) => command(now),
    answer: (state, _, now) => ({ version: state.version, now }),
  });
}

/**
 * Closes `month` (`YYYY-MM`) for `actor` (module docstring) → the close. Throws PERIOD_ALREADY_CLOSED,
 * PERIOD_NOT_ENDED, PERIOD_HAS_PENDING, PERIOD_HAS_UNPRICED (details: every blocker), CLOSE_NEEDS_WHOLE_FACTORY, ROLE_REVOKED.
 */
export async function closePeriod(deps: PeriodDeps, actor: Actor, month: string): Promise<CloseAnswer> {
  const answer = await withTransaction<CloseAnswer>(deps.pool, async (tx) => {
    await mustBeWholeFactory(tx, actor);
    await tx.query(`SELECT lock_month_exclusive($1)`, [month]);
    const facts = await closeFacts(tx, month);
    const closed = await decide(deps, tx, actor, month, (now) => ({
      type: 'Close',
      month,
      today: localDate(now, deps.timeZone),
      ...facts,
      at: now.toISOString(),
    }));
    const by = await tx.query(`SELECT closed_by_name FROM periods WHERE month = $1`, [month]);
    return {
      month,
      status: 'closed',
      version: closed.version,
      closedAt: closed.now,
      closedBy: { phone: actor.phone, name: by.rows[0]?.closed_by_name ?? null },
      amountFen: BigInt(facts.figures.amountFen),
      workers: facts.figures.workers,
    };
  });
  deps.commands.committed?.(['PeriodClosed']);
  return answer;
}

/**
 * Reopens the closed `month` for `actor` with `reason` (1–200 characters) → its status and the version of the
 * close reopened. Throws PERIOD_NOT_CLOSED, INVALID_REASON, CLOSE_NEEDS_WHOLE_FACTORY, ROLE_REVOKED.
 */
export async function reopenPeriod(deps: PeriodDeps, actor: Actor, month: string, reason: string): Promise<ReopenAnswer> {
  const answer = await withTransaction<ReopenAnswer>(deps.pool, async (tx) => {
    await mustBeWholeFactory(tx, actor);
    await tx.query(`SELECT lock_month_exclusive($1)`, [month]);
    const reopened = await decide(deps, tx, actor, month, (now) => ({ type: 'Reopen', month, reason, at: now.toISOString() }));
    return { month, status: 'open', version: reopened.version };
  });
  deps.commands.committed?.(['PeriodReopened']);
  return answer;
}
