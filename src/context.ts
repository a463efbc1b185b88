/**
 * The service's dependencies, built once by `createContext` (src/app.ts) and handed to routes, commands and
 * jobs. Tests build the same context with a ManualClock and their own database.
 */
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Database } from './db/database.ts';
import type { EventStore } from './events/store.ts';
import type { Logger } from './logger.ts';
import type { TokenService } from './auth/tokens.ts';
import type { CommandDeps } from './commands/command.ts';
import type { ClockSettings } from './domain/clock.ts';
import type { CalendarCache } from './shifts/calendar-cache.ts';
import type { Projection } from './projections/projection.ts';
import type { AsyncConsumer } from './projections/consumer.ts';
import type { CatchUps } from './projections/catch-ups.ts';
import type { BackgroundConsumers } from './projections/background.ts';
import type { FreshReads } from './projections/fresh-reads.ts';
import type { PlatformApi } from './platform/types.ts';
import type { PlatformSimulator } from './platform/simulator.ts';

export interface AppContext {
  readonly config: Config;
  readonly clock: Clock;
  readonly db: Database;
  readonly store: EventStore;
  readonly log: Logger;
  readonly tokens: TokenService;
  /** What the command path needs (commands/command.ts): store, repository, where reads and appends run, clock, inline projections. */
  readonly commands: CommandDeps;
  /** The clocking rules' settings (report window, session age, time zone, starting break). */
  readonly clockSettings: ClockSettings;
  /**
   * Workers' shift calendars kept in the process (src/shifts/calendar-cache.ts), shared by the submission's facts
   * and the draft; absent when the facts cache is off (SPEED_PIECES_OFF=facts-cache).
   */
  readonly calendars?: CalendarCache;
  readonly projections: readonly Projection[];
  /** Async projections and reactors run by the leader instance. */
  readonly consumers: readonly AsyncConsumer[];
  /** The catch-ups of the async consumers in this process, one per consumer at a time (background loop and readers). */
  readonly catchUps: CatchUps;
  /**
   * The background loop of the async consumers (started by startService unless `background: false`); the command path
   * nudges it when an event the read models' readers wait for is committed.
   */
  readonly background: BackgroundConsumers;
  /** The wait of a read of an async read model for what was committed when it came (projections/fresh-reads.ts). */
  readonly freshReads: FreshReads;
  /** The messaging platform (real API or simulator). */
  readonly platform: PlatformApi;
  /** The built-in platform simulator, when `platform` talks to it (no WX_APPID); tests force errors with it. */
  readonly simulator?: PlatformSimulator;
}
