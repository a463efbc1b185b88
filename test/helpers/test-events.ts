/** A registry with one test event type (v2, with an upcaster from v1) for event-store tests. */
import { z } from 'zod';
import { defineEvent } from '../../src/events/define.ts';
import { EventRegistry } from '../../src/events/registry.ts';

export const Counted = defineEvent({
  type: 'Counted',
  version: 2,
  schema: z.object({ n: z.number().int(), label: z.string() }),
  // v1 payloads had no label.
  upcasters: { 1: (d: { n: number }) => ({ ...d, label: 'v1' }) },
});
export type CountedEvent = { type: 'Counted'; data: { n: number; label: string } };
export const testRegistry = new EventRegistry([Counted]);
