/**
 * Composition root: builds the AppContext from a Config and starts or stops the service.
 *
 * `createContext(config, {db?, clock?, log?, platform?})` opens (or takes) the database, runs the migrations and
 * builds the platform client (src/platform/index.ts: the real API, or the simulator on a loopback port).
 * `startService(config, opts)` also starts the HTTP server on `config.port` (0: any free port) and the
 * background work (async consumers, jobs); `service.close()` stops accepting requests, lets the ones in
 * flight finish, stops the background work, closes the platform (and its simulator) unless it was injected,
 * and closes the database.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from './db/database.ts';
import { runMigrations } from './db/migrate.ts';
import { EventStore } from './events/store.ts';
import { domainRegistry } from './events/registry.ts';
import { createLogger, type Logger } from './logger.ts';
import { TokenService } from './auth/tokens.ts';
import { projections as allProjections } from './projections/index.ts';
import { CachingRepository, StreamRepository } from './commands/repository.ts';
import { CalendarCache } from './shifts/calendar-cache.ts';
import { projectionConsumer, type AsyncConsumer } from './projections/consumer.ts';
import { BackgroundConsumers } from './projections/background.ts';
import { CatchUps } from './projections/catch-ups.ts';
import { FreshReads } from './projections/fresh-reads.ts';
import { oeeDaysConsumer } from './queries/oee-days.ts';
import type { ClockSettings } from './domain/clock.ts';
import { startAbandonJob } from './jobs/abandon-sessions.ts';
import { createHttpApp } from './http/app.ts';
import { leanDispatcher } from './http/lean.ts';
import { clientErrorListener } from './http/client-error.ts';
import { routes } from './http/routes/index.ts';
import type { PlatformApi } from './platform/types.ts';
import { createPlatform } from './platform/index.ts';
import { notificationReactor } from './notifications/reactor.ts';
import { plausibilityBounds } from './domain/plausibility.ts';
import { NotificationSender } from './notifications/sender.ts';

export interface ContextOptions {
  db?: Database;
  clock?: Clock;
  log?: Logger;
  platform?: PlatformApi;
}

/**
 * Builds the AppContext from `config`: opens the database (or takes `opts.db`), runs the migrations, and wires the
 * event store, inline and async projections, notification reactor, token service and platform client (injected,
 * the real API, or the simulator). `opts.clock` and `opts.log` replace the system clock and the root logger.
 * Throws DataDirLockedError when another process holds the PGlite folder.
 */
export async function createContext(config: Config, opts: ContextOptions = {}): Promise<AppContext> {
  const log = opts.log ?? createLogger(config.logLevel);
  const off = config.speedPiecesOff;
  const db =
    opts.db ??
    (await openDatabase(
      config.database.kind === 'postgres'
        ? { ...config.database, groupCommit: !off.has('group-commit'), preparedStatements: !off.has('prepared-statements') }
        : config.database,
      log,
    ));
  const applied = await runMigrations(db.pool);
  if (applied.length) log.info({ migrations: applied }, 'database migrated');
  const clock = opts.clock ?? systemClock;
  const store = new EventStore(domainRegistry, { typedParameters: !off.has('typed-appends') });
  const inline = allProjections.filter((p) => p.mode === 'inline');
  const projected = allProjections.filter((p) => p.mode === 'async').map((p) => ({ consumer: projectionConsumer(p), shownBy: p.shownBy ?? p.eventTypes }));
  const clockSettings: ClockSettings = {
    reportWindowMs: config.reportWindowMs,
    sessionMaxMs: config.sessionMaxMs,
    timeZone: config.timeZone,
    defaultBreakMinutes: config.defaultBreakMinutes,
    plausibility: plausibilityBounds(config),
    defectReasonsRequired: config.defectReasonsRequired,
    workOrderFlow: { tolerance: config.workOrderFlowTolerance, overrunRatio: config.workOrderOverrunRatio },
    crewSplit: config.crewSplit,
  };
  // The OEE read model of the closed days: every event it handles changes what its readers are shown.
  const oeeDays = oeeDaysConsumer(clock, clockSettings);
  const readModels = [...projected, { consumer: oeeDays, shownBy: oeeDays.eventTypes }];
  const consumers: AsyncConsumer[] = [...readModels.map((m) => m.consumer), notificationReactor({ config, clock, log })];
  const catchUps = new CatchUps(db.pool, store);
  const background = new BackgroundConsumers(db, catchUps, consumers, log);
  // An event a read model's readers wait for (an approval, a rate, a close) wakes the consumers at once (not the
  // clockings the OEE days wait for: a reader of them catches the model up itself).
  const shown = new Set(projected.flatMap((m) => m.shownBy));
  const committed = (types: readonly string[]) => {
    if (types.some((t) => shown.has(t))) background.nudge();
  };
  // The platform: injected (tests), the real API (WX_APPID set) or the simulator on a loopback port.
  const calendars = off.has('facts-cache') ? undefined : new CalendarCache();
  const built = opts.platform ? { platform: opts.platform, simulator: undefined } : await createPlatform(config, clock, log);
  return {
    config,
    clock,
    db,
    store,
    log,
    tokens: new TokenService(config.jwtSecret, config.tokenTtl),
    commands: {
      store,
      repository: calendars ? new CachingRepository(store, inline, calendars) : new StreamRepository(store, inline),
      reads: db.pool,
      writes: db.writes,
      clock,
      inline,
      committed,
    },
    clockSettings,
    calendars,
    projections: allProjections,
    consumers,
    catchUps,
    background,
    freshReads: new FreshReads(db.pool, catchUps, readModels, { waitMs: config.readModelWaitMs, enabled: !off.has('fresh-reads'), log }),
    platform: built.platform,
    simulator: built.simulator,
  };
}

export interface Service {
  ctx: AppContext;
  server: Server;
  /** The port actually listened on. */
  port: number;
  background: BackgroundConsumers;
  /** Delivers the notification outbox (started with the background work). */
  sender: NotificationSender;
  close(): Promise<void>;
}

/**
 * Creates the context and starts the HTTP server on `config.port` (0: any free port) and, unless
 * `opts.background === false`, the async consumers, the notification sender and the abandonment job.
 * Returns the running Service; its `close()` shuts everything down in order (module docstring).
 */
export async function startService(config: Config, opts: ContextOptions & { background?: boolean } = {}): Promise<Service> {
  const ctx = await createContext(config, opts);
  if (config.jwtSecretGenerated) ctx.log.warn('JWT_SECRET is not set: a random key is used, tokens end with this process');
  else if (config.jwtSecretFile) ctx.log.info({ file: config.jwtSecretFile }, 'JWT_SECRET is not set: the key kept beside the embedded database is used, sign-ins outlive a restart');
  const app = createHttpApp(ctx, routes);
  const lean = config.speedPiecesOff.has('lean') ? () => false : leanDispatcher(ctx, routes);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer((req, res) => {
      if (!lean(req, res)) void app(req, res);
    });
    s.on('clientError', clientErrorListener(ctx.log));
    s.once('error', reject);
    s.listen(config.port, () => resolve(s));
  });
  // Keep idle connections longer than the usual load-balancer idle timeout (60 s), so a proxy never reuses a
  // connection the service has just closed (Node's default of 5 s makes clients see ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const background = ctx.background;
  const sender = new NotificationSender({ pool: ctx.db.pool, platform: ctx.platform, clock: ctx.clock, log: ctx.log });
  if (opts.background !== false) {
    background.start();
    sender.start();
  }
  const abandonJob = opts.background !== false ? startAbandonJob(ctx) : undefined;
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    ctx,
    server,
    port,
    background,
    sender,
    close() {
      closing ??= (async () => {
        // Stop accepting; let requests in flight finish; drop keep-alive connections as they fall idle.
        await new Promise<void>((resolve) => {
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          server.closeIdleConnections();
        });
        await abandonJob?.stop();
        await background.stop();
        await sender.stop();
        if (!opts.platform) await ctx.platform.close?.();
        await ctx.db.close();
      })();
      return closing;
    },
  };
}
