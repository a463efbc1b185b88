/**
 * Event registry: validates payloads on append and upcasts old payload versions on read.
 */
import type { EventDefinition } from './define.ts';
import { eventDefinitions } from './catalog.ts';

/** A payload that fails its event type's current schema on append; `issues` are the zod issues. */
export class EventValidationError extends Error {
  constructor(
    readonly eventType: string,
    readonly issues: unknown,
  ) {
    super(`invalid ${eventType} payload: ${JSON.stringify(issues)}`);
  }
}

/**
 * The event definitions by type: validates payloads against the current schema (`validate`) and upcasts stored
 * payloads of older versions (`upcast`). The constructor throws when a type is defined twice.
 */
export class EventRegistry {
  private readonly defs = new Map<string, EventDefinition>();

  constructor(definitions: readonly EventDefinition[]) {
    for (const d of definitions) {
      if (this.defs.has(d.type)) throw new Error(`event type ${d.type} defined twice`);
      this.defs.set(d.type, d);
    }
  }

  /** The definition of `type`; throws for an unknown type (a programming error). */
  get(type: string): EventDefinition {
    const d = this.defs.get(type);
    if (!d) throw new Error(`unknown event type ${type}`);
    return d;
  }

  /** Validates `data` against the current schema; returns the parsed payload and its version. */
  validate(type: string, data: unknown): { data: unknown; version: number } {
    const d = this.get(type);
    const r = d.schema.safeParse(data);
    if (!r.success) throw new EventValidationError(type, r.error.issues);
    return { data: r.data, version: d.version };
  }

  /** Turns a stored payload of `version` into the current version through the upcasters, in order. */
  upcast(type: string, version: number, data: unknown): unknown {
    const d = this.defs.get(type);
    if (!d) return data;
    let out = data;
    for (let v = version; v < d.version; v++) {
      const up = d.upcasters[v];
      if (!up) throw new Error(`no upcaster for ${type} v${v} → v${v + 1}`);
      out = up(out);
    }
    return out;
  }
}

/** The registry of every domain event of the service. */
export const domainRegistry = new EventRegistry(eventDefinitions as unknown as EventDefinition[]);
