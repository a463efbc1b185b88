/**
 * Loading what a command decides on (the first step of command.ts): a section of the command's stream
 * folded into the decider's state, with its version (the expected version of the append) and the inline
 * projections' rows of it (what the new events' rows are computed from), and the facts the command asks
 * (facts.ts).
 * - `StreamRepository` reads them from the database every time.
 * - `CachingRepository` keeps, per process, the section each kept stream's last command ended with (the worker
 *   streams: StreamQuery.keep), the person names, the product snapshots, the workers' placements with the dates
 *   they hold for and their shift calendars around a clock-in date (a CalendarCache
 *   shared with the draft), both with the stream heads they were read with (events/heads.ts), each bounded, least
 *   recently used forgotten first, so that a worker's next command usually reads nothing. What comes from the
 *   cache is a hint, never trusted alone: the append checks it (the expected version, the facts guard), and
 *   command.ts confirms refusals and no-ops on a fresh load. Several API instances may therefore each cache the
 *   same stream.
 */
import type { Queryable } from '../db/transaction.ts';
import type { ProductSnapshot } from '../domain/report-line.ts';
import type { Placement } from '../domain/placement.ts';
import type { ShiftDay } from '../domain/shift-breaks.ts';
import type { EventStore, SectionStart } from '../events/store.ts';
import { mergeHeads, type StreamHeads } from '../events/heads.ts';
import { CalendarCache } from '../shifts/calendar-cache.ts';
import { Lru } from '../shared/lru.ts';
import { overlay, rowsOf, type KnownRows } from '../projections/inline.ts';
import type { ProjectedEvent, Projection } from '../projections/projection.ts';
import { loadFacts, type FactQuery, type Facts } from './facts.ts';

/** How a stream's events fold into a decider's state. */
export interface Fold<S> {
  readonly initialState: S;
  evolve(state: S, event: { type: string; data: unknown }): S;
}

/** The stream a command decides on, and which section of it to read. */
export interface StreamQuery<S> {
  readonly streamId: string;
  readonly fold: Fold<S>;
  /**
   * The stream is read in sections that begin at its last event of this type (the worker stream: ClockedIn, so a
   * worker's state is that of the latest session); absent: the whole stream.
   */
  readonly sectionType?: string;
  /**
   * For a command about an earlier section (a submission names its session): `find` gives the stream version the
   * section begins at (undefined: no such section for this caller), and `covers(state)` whether a cached section
   * serves the command.
   */
  readonly locate?: { find(q: Queryable): Promise<number | undefined>; covers(state: S): boolean };
  /**
   * Whether a caching repository keeps the section between commands: for streams whose next command comes soon
   * and is frequent (a worker's clocking); a report's few reviews would only fill memory.
   */
  readonly keep?: boolean;
}

/** A loaded stream section: the folded state, the stream's version, the inline projections' rows of it. */
export interface Section<S> {
  readonly state: S;
  readonly version: number;
  readonly rows: KnownRows;
}

export interface Loaded<S> {
  /** Undefined when `locate` found no section for this caller. */
  readonly section?: Section<S>;
  readonly facts: Facts;
  /** The facts' query as asked after the section was loaded (`more`); absent: the query given. */
  readonly query?: FactQuery;
  /** True when any of it came from the cache. */
  readonly cached: boolean;
}

/** Loads commands' sections and facts (module docstring). */
export interface Repository {
  /**
   * The section of `stream` and the facts of `query`, through `q`; from the database only when `fresh`. With
   * `more`, the facts of `more(section.state)` instead (a query that extends `query` by facts depending on the
   * state; command.ts CommandRun.factsOf), reported as `Loaded.query`.
   */
  load<S>(q: Queryable, stream: StreamQuery<S>, query: FactQuery, fresh: boolean, more?: (state: S) => FactQuery): Promise<Loaded<S>>;
  /** Keeps what a command ended with (after its append, or a no-op confirmed on fresh state). */
  remember<S>(stream: StreamQuery<S>, section: Section<S>, query: FactQuery, facts: Facts): void;
  /** Drops what `stream` and `query` cached (a hint proved stale). */
  forget(stream: StreamQuery<unknown>, query: FactQuery): void;
}

/**
 * The section of `stream` after a command appended `appended` (its own events, with their stream versions),
 * reaching `state` and writing `written` (their inline rows): a new section from the last appended event of the
 * stream's section type when there is one, else `before` extended.
 */
export function sectionAfter<S>(
  stream: StreamQuery<S>,
  inline: readonly Projection[],
  before: Section<S>,
  appended: readonly ProjectedEvent[],
  state: S,
  written: KnownRows,
): Section<S> {
  const version = appended.length ? appended[appended.length - 1].streamVersion : before.version;
  const restart = stream.sectionType ? appended.map((e) => e.type).lastIndexOf(stream.sectionType) : -1;
  if (restart < 0) return { state, version, rows: overlay(before.rows, written) };
  const section = appended.slice(restart);
  return { state: section.reduce(stream.fold.evolve, stream.fold.initialState), version, rows: rowsOf(inline, section) };
}

/** Reads sections and facts from the database, every time. */
export class StreamRepository implements Repository {
  constructor(
    private readonly store: EventStore,
    private readonly inline: readonly Projection[],
  ) {}

  async load<S>(q: Queryable, stream: StreamQuery<S>, query: FactQuery, _fresh?: boolean, more?: (state: S) => FactQuery): Promise<Loaded<S>> {
    if (more) {
      // The section first: the facts depend on its state.
      const section = await this.readSection(q, stream);
      const asked = section ? more(section.state) : query;
      return { section, facts: await loadFacts(q, asked), query: asked, cached: false };
    }
    const facts = await loadFacts(q, query);
    return { section: await this.readSection(q, stream), facts, cached: false };
  }

  remember(): void {}

  forget(): void {}

  private async readSection<S>(q: Queryable, stream: StreamQuery<S>): Promise<Section<S> | undefined> {
    let from: SectionStart = stream.sectionType ? { lastOf: stream.sectionType } : 1;
    if (stream.locate) {
      const at = await stream.locate.find(q);
      if (at === undefined) return undefined;
      from = at;
    }
    const events = await this.store.readStream(q, stream.streamId, from);
    return {
      state: events.reduce(stream.fold.evolve, stream.fold.initialState),
      version: events.length ? events[events.length - 1].streamVersion : 0,
      rows: rowsOf(this.inline, events),
    };
  }
}

const personKey = (p: { phone: string; role: string }) => `${p.phone} ${p.role}`;
/**
 * A worker's placement, the dates it holds for (Facts.placementSpan) and the heads it was read
 * with (Facts.heads: with the calendar's, when both were read together).
 */
interface CachedPlacement {
  readonly placement: Placement;
  readonly from: string;
  readonly to: string | null;
  readonly heads: StreamHeads;
}

/** A StreamRepository with a per-process cache in front (module docstring). */
export class CachingRepository implements Repository {
  private readonly fromDatabase: StreamRepository;
  private readonly sections: Lru<string, Section<unknown>>;
  private readonly people: Lru<string, string>;
  private readonly products: Lru<number, ProductSnapshot>;
  /**
   * The placements read, by phone, with the dates they hold for (a worker's membership usually
   * covers every day of the coming weeks); a hint like the rest, checked by every append's guard.
   */
  private readonly placements: Lru<string, CachedPlacement>;
  /**
   * @param calendars the workers' shift calendars kept with their heads (src/shifts/calendar-cache.ts),
   *   shared with the draft, checked by the guard.
   */
  constructor(
    store: EventStore,
    inline: readonly Projection[],
    private readonly calendars = new CalendarCache(),
    limits = { sections: 20_000, people: 20_000, products: 50_000 },
  ) {
    this.fromDatabase = new StreamRepository(store, inline);
    this.sections = new Lru(limits.sections);
    this.people = new Lru(limits.people);
    this.products = new Lru(limits.products);
    this.placements = new Lru(limits.people);
  }

  async load<S>(q: Queryable, stream: StreamQuery<S>, query: FactQuery, fresh: boolean, more?: (state: S) => FactQuery): Promise<Loaded<S>> {
    const section = fresh ? undefined : (this.sections.get(stream.streamId) as Section<S> | undefined);
    if (section && (!stream.locate || stream.locate.covers(section.state))) {
      const asked = more ? more(section.state) : query;
      let facts = this.cachedFacts(asked);
      if (!facts) this.keepFacts(asked, (facts = await loadFacts(q, asked)));
      return { section, facts, cached: true, ...(more ? { query: asked } : {}) };
    }
    const loaded = await this.fromDatabase.load(q, stream, query, fresh, more);
    this.keepFacts(loaded.query ?? query, loaded.facts);
    return loaded;
  }

  remember<S>(stream: StreamQuery<S>, section: Section<S>, query: FactQuery, facts: Facts): void {
    if (stream.keep) this.sections.set(stream.streamId, section);
    this.keepFacts(query, facts);
  }

  forget(stream: StreamQuery<unknown>, query: FactQuery): void {
    this.sections.delete(stream.streamId);
    if (query.person) this.people.delete(personKey(query.person));
    for (const id of query.productIds ?? []) this.products.delete(id);
    if (query.placementOf) this.placements.delete(query.placementOf.phone);
    if (query.shiftsOf) this.calendars.delete(query.shiftsOf.phone);
  }

  /** What the cache holds for `streamId` (for inspection). */
  cachedSection(streamId: string): Section<unknown> | undefined {
    return this.sections.get(streamId);
  }

  /**
   * The facts of `query` from the cache (the device assumed in use and the months open: the append checks both),
   * or undefined.
   */
  cachedFacts(query: FactQuery): Facts | undefined {
    if (query.shiftIds?.length) return undefined; // shifts: never cached (the shift commands are rare)
    if (query.reportInScope !== undefined || query.writeScope !== undefined) return undefined; // a scope is read fresh
    if (query.defectReasonCodes?.length) return undefined; // defect reasons are read with the facts (one statement)
    if (query.workOrders || query.workOrderProduct || query.workOrderReported !== undefined) return undefined; // work orders: read fresh
    // Crew work: a submission with crew lines reads who was on the device fresh. One without assumes that no line
    // counts its submitter yet (the usual case), which the append's guard checks (commands/facts.ts
    // crew_coverage_unchanged): when some line does, the guard fails and the command reads fresh and refuses.
    const crew = query.crewOf;
    if (crew && (crew.crewProductIds.length > 0 || crew.phones.some((p) => p !== query.person?.phone))) return undefined;
    if (query.onDevice || query.stopReasonCodes?.length || query.deviceAttendance) return undefined; // downtime: read fresh
    const personName = query.person ? this.people.get(personKey(query.person)) : undefined;
    if (query.person && personName === undefined) return undefined;
    const products: ProductSnapshot[] = [];
    for (const id of new Set(query.productIds ?? [])) {
      const p = this.products.get(id);
      if (!p) return undefined;
      products.push(p);
    }
    // The organization's other facts are never cached (their commands keep no section).
    if (query.workshopCodes?.length || query.teamCodes?.length || query.people?.length) return undefined;
    let placement: Placement | undefined;
    let heads: StreamHeads | undefined;
    if (query.placementOf) {
      const c = this.placements.get(query.placementOf.phone);
      const date = query.placementOf.date;
      if (!c || date < c.from || (c.to !== null && date > c.to)) return undefined;
      placement = c.placement;
      heads = c.heads;
    }
    let shiftDays: readonly ShiftDay[] | undefined;
    if (query.shiftsOf) {
      const kept = this.calendars.get(query.shiftsOf.phone, query.shiftsOf.date);
      if (!kept) return undefined;
      shiftDays = kept.days;
      // Kept at different times and disagreeing on a stream: at most one still holds, read both again.
      heads = heads ? mergeHeads(heads, kept.heads) : kept.heads;
      if (!heads) return undefined;
    }
    const assumed = crew ? { crew: { sessions: [], coverage: [], names: [] } } : {};
    return { personName, deviceInUse: true, products, closedMonths: [], reportInScope: true, placement, shiftDays, heads, ...assumed };
  }

  private keepFacts(query: FactQuery, facts: Facts): void {
    if (query.person && facts.personName !== undefined) this.people.set(personKey(query.person), facts.personName);
    for (const p of facts.products) this.products.set(p.productId, p);
    if (query.placementOf && facts.placement && facts.placementSpan && facts.heads) {
      this.placements.set(query.placementOf.phone, { placement: facts.placement, ...facts.placementSpan, heads: facts.heads });
    }
    if (query.shiftsOf && facts.shiftDays && facts.heads) {
      this.calendars.set(query.shiftsOf.phone, { date: query.shiftsOf.date, days: facts.shiftDays, heads: facts.heads });
    }
  }
}
