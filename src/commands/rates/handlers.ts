/**
 * Setting a rate: one `runCommand` (command.ts) of the rate decider on the whole stream
 * `product-<productId>`. Facts: the product (it must exist; its row must not change meanwhile) and the month of
 * `effectiveFrom` (it must be open, commands/facts.ts). The actor (phone, name, role) goes into the event's
 * metadata: who set the rate. Run by `POST /api/products/:productId/rates`, by `POST /api/products` with rates,
 * and by a product import's confirmation (inside its transaction: `commandsIn`).
 */
import { streams } from '../../events/catalog.ts';
import { monthOf } from '../../domain/period.ts';
import { runCommand, type CommandActor, type CommandDeps } from '../command.ts';
import { rateDecider } from './decider.ts';

/** A rate to set: rates in ten-thousandths of a yuan (domain/money.ts), `effectiveFrom` a local date. */
export interface RateInput {
  productId: number;
  effectiveFrom: string;
  pieceRate: number;
  defectRate: number;
  /** 料废单价; absent: 料废 is priced at `defectRate`. */
  materialDefectRate?: number;
  reason?: string;
}

/** The answer: the entry as it stands (also when it was already so). */
export type RateAnswer = Omit<RateInput, 'reason'>;

/**
 * Sets `input` for `actor` (module docstring; a person, or the command line's import) → the entry. Throws
 * PRODUCT_NOT_FOUND, PERIOD_CLOSED, INVALID_RATE, INVALID_REASON, ROLE_REVOKED.
 */
export function setRate(deps: CommandDeps, actor: CommandActor, input: RateInput): Promise<RateAnswer> {
  return runCommand(deps, actor, {
    decider: rateDecider,
    stream: { streamId: streams.product(input.productId), fold: rateDecider },
    facts: { productIds: [input.productId], months: [monthOf(input.effectiveFrom)] },
    command: (facts, now) => ({
      type: 'SetRate',
      ...input,
      at: now.toISOString(),
      productExists: facts.products.some((p) => p.productId === input.productId),
      closedMonths: facts.closedMonths,
    }),
    answer: () => ({
      productId: input.productId,
      effectiveFrom: input.effectiveFrom,
      pieceRate: input.pieceRate,
      defectRate: input.defectRate,
      ...(input.materialDefectRate !== undefined ? { materialDefectRate: input.materialDefectRate } : {}),
    }),
  });
}
