/**
 * A history for tests, without the flows that make it: `recordEvents(ctx, metadata, stream, events)` appends
 * `events` to the stream through the one command path (src/commands/command.ts), with a decider that decides
 * exactly them, so their inline read-model rows are written as a command's would be. `metadata` is what the
 * events carry (no person is checked).
 */
import { runCommand } from '../../src/commands/command.ts';
import type { StreamQuery } from '../../src/commands/repository.ts';
import type { AppContext } from '../../src/context.ts';
import type { DomainEvent } from '../../src/events/catalog.ts';
import type { EventMetadata } from '../../src/events/store.ts';

/** Appends `events` to `stream` (at its current version) as `metadata` says; resolves once committed. */
export async function recordEvents<S>(ctx: AppContext, metadata: EventMetadata, stream: StreamQuery<S>, events: DomainEvent[]): Promise<void> {
  await runCommand(ctx.commands, { system: metadata }, {
    decider: { initialState: stream.fold.initialState, evolve: stream.fold.evolve, decide: () => events },
    stream,
    command: () => undefined,
    answer: () => undefined,
  });
}
