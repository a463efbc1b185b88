/**
 * Typed, versioned event definitions. Each event type has a zod schema for its current payload version and
 * optional upcasters that turn older stored payloads into the current shape when read.
 *
 * `defineEvent({type, version, schema, upcasters})`: `upcasters[n]` maps a version-n payload to version n+1.
 */
import type { z } from 'zod';

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  /** Current schema version written by `append`. */
  readonly version: number;
  readonly schema: S;
  readonly upcasters: Readonly<Record<number, (data: any) => unknown>>;
}

/**
 * Declares an event type: `{type, version?, schema, upcasters?}` → an EventDefinition (version default 1, no
 * upcasters by default); `upcasters[n]` maps a version-n payload to version n+1.
 */
export function defineEvent<T extends string, S extends z.ZodType>(def: {
  type: T;
  version?: number;
  schema: S;
  upcasters?: Record<number, (data: any) => unknown>;
}): EventDefinition<T, S> {
  return { type: def.type, version: def.version ?? 1, schema: def.schema, upcasters: def.upcasters ?? {} };
}

/** `{type, data}` of one definition. */
export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: z.infer<S> } : never;
