/**
 * An approval's corrections as the worker reads them on 我的报工: the lines as they stand now
 * beside the lines this phone submitted (platform/submitted-store.ts). Plain TypeScript, no `wx`.
 */

/** A line as submitted from this phone. */
export interface SubmittedLine {
  productId: number;
  name: string;
  finishedQty: number;
  defectiveQty: number;
}

/** A line as it stands now (the report's `lines`). */
export interface CurrentLine {
  productId: number;
  productName: string;
  finishedQty: number;
  defectiveQty: number;
  outputQty: number;
}

export interface LineView {
  productId: number;
  name: string;
  finishedQty: number;
  defectiveQty: number;
  outputQty: number;
  /** '' when unchanged; `审核修正：原为 成品 500，不良 5`; `审核新增`. */
  note: string;
}

const was = (l: { finishedQty: number; defectiveQty: number }) => `成品 ${l.finishedQty}，不良 ${l.defectiveQty}`;

/**
 * The current lines with a note on each line the review changed or added, and the lines it removed
 * (`前围横梁（原为 成品 500，不良 5）`). Without `submitted` (another phone submitted it) no line has a note.
 */
export function withCorrections(current: readonly CurrentLine[], submitted?: readonly SubmittedLine[]): { lines: LineView[]; removed: string[] } {
  const before = new Map((submitted ?? []).map((l) => [l.productId, l]));
  const lines = current.map((l): LineView => {
    const b = before.get(l.productId);
    let note = '';
    if (submitted && !b) note = '审核新增';
    else if (b && (b.finishedQty !== l.finishedQty || b.defectiveQty !== l.defectiveQty)) note = `审核修正：原为 ${was(b)}`;
    return { productId: l.productId, name: l.productName, finishedQty: l.finishedQty, defectiveQty: l.defectiveQty, outputQty: l.outputQty, note };
  });
  const now = new Set(current.map((l) => l.productId));
  const removed = (submitted ?? []).filter((l) => !now.has(l.productId)).map((l) => `${l.name}（原为 ${was(l)}）`);
  return { lines, removed };
}
