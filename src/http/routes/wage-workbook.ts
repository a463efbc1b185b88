/**
 * The month's wages as a workbook (`GET /api/wages.xlsx`), in the layout a payroll clerk imports: one header row, one
 * row per record, then a 合计 row; numbers as numeric cells (amounts with 2 decimals, rates with 4, written from
 * their exact decimal text). An unpriced rate or amount reads 未定价 (never an empty cell or 0.00 that looks paid).
 * - 汇总: 手机号, 姓名, 车间, 班组, 报工单数, 成品数量, 不良数量, 计件工资, 未定价行 — one row per worker, by phone; a
 *   worker whose every line is unpriced has 未定价 as 计件工资; 合计 sums the columns (the amount exactly, in fen);
 * - 明细: one row per line of the approved reports — by worker, report date, report — with its 不良 split by the
 *   recorded category of each reason (工废, 料废, 其他, 未注明: the pieces without a reason), its rates (料废单价 the
 *   one the line was priced at: the 不良单价 when the rate sets none) and amount; 班组报工 says whether the row is a
 *   member's share of a crew line and who submitted it (`crewCell`); 合计 sums the quantities and the priced amounts.
 */
import * as XLSX from 'xlsx';
import type { Queryable } from '../../db/transaction.ts';
import { formatFen, formatRate } from '../../domain/money.ts';
import { wageExport } from '../../queries/wages.ts';
import { WHOLE_READER, type Reader } from '../../domain/scope.ts';

type Cell = string | number | null | { v: number; z: string };

/** What an unpriced rate or amount reads in the workbook. */
export const UNPRICED = '未定价';

/** A numeric cell from exact decimal text (its shortest form is that text), shown with `decimals` decimals; null: 未定价. */
const decimal = (text: string | null, decimals: number): Cell => (text === null ? UNPRICED : { v: Number(text), z: `0.${'0'.repeat(decimals)}` });

type Export = Awaited<ReturnType<typeof wageExport>>;
type WorkerRecord = Export['workers'][number] & { pricedLines: number };
type Line = Export['lines'][number];

/**
 * 班组报工 of a 明细 row: 否 for a worker's own line; for a member's share of a crew line, 是 with who submitted it
 * (their name at submission, else the phone): "是（张三 提交）". The row's quantities and amount are the share.
 */
export function crewCell(l: Pick<Line, 'crew'>): string {
  if (!l.crew) return '否';
  const submitter = l.crew.shares.find((s) => s.phone === l.crew!.submitter);
  return `是（${submitter?.name ?? l.crew.submitter} 提交）`;
}

/** The two sheets' columns: header and how a record gives the cell. */
export const WAGES_XLSX = {
  summary: [
    ['手机号', (w) => w.employeePhone],
    ['姓名', (w) => w.employeeName],
    ['车间', (w) => w.workshopName ?? w.workshopCode],
    ['班组', (w) => w.teamName ?? w.teamCode],
    ['报工单数', (w) => w.reports],
    ['成品数量', (w) => w.finishedQty],
    ['不良数量', (w) => w.defectiveQty],
    ['计件工资', (w) => decimal(w.pricedLines === 0 && w.unpricedLines > 0 ? null : formatFen(w.amountFen), 2)],
    ['未定价行', (w) => w.unpricedLines],
  ],
  lines: [
    ['手机号', (l) => l.employeePhone],
    ['姓名', (l) => l.employeeName],
    ['报工日期', (l) => l.reportDate],
    ['报工单号', (l) => l.reportId],
    ['项目号', (l) => l.projectNo],
    ['产品名称', (l) => l.productName],
    ['使用设备', (l) => l.deviceNo],
    ['工序', (l) => l.processName],
    ['班组报工', crewCell],
    ['成品数量', (l) => l.finishedQty, 'sum'],
    ['不良数量', (l) => l.defectiveQty, 'sum'],
    ['工废数量', (l) => l.operatorDefectQty, 'sum'],
    ['料废数量', (l) => l.materialDefectQty, 'sum'],
    ['其他不良数量', (l) => l.otherDefectQty, 'sum'],
    ['未注明原因数量', (l) => l.unexplainedDefectQty, 'sum'],
    ['计件单价', (l) => decimal(l.pieceRate === null ? null : formatRate(l.pieceRate), 4)],
    ['不良单价', (l) => decimal(l.defectRate === null ? null : formatRate(l.defectRate), 4)],
    ['料废单价', (l) => decimal(l.materialDefectRate === null ? null : formatRate(l.materialDefectRate), 4)],
    ['金额', (l) => decimal(l.amountFen === null ? null : formatFen(l.amountFen), 2)],
  ],
} satisfies {
  summary: [string, (w: WorkerRecord) => Cell][];
  /** 'sum': the 合计 row sums the column (a count). */
  lines: [string, (l: Line) => Cell, 'sum'?][];
};

/** The 合计 row of 汇总: the columns summed (the amount in fen, exactly), the text columns empty. */
function summaryTotal(workers: readonly WorkerRecord[]): Cell[] {
  const sum = (f: (w: WorkerRecord) => number) => workers.reduce((a, w) => a + f(w), 0);
  const amount = workers.reduce((a, w) => a + w.amountFen, 0n);
  return ['合计', null, null, null, sum((w) => w.reports), sum((w) => w.finishedQty), sum((w) => w.defectiveQty), decimal(formatFen(amount), 2), sum((w) => w.unpricedLines)];
}

/** The 合计 row of 明细: the counted columns summed, and the priced amounts (in fen, exactly). */
function linesTotal(lines: readonly Line[]): Cell[] {
  const amount = lines.reduce((a, l) => a + (l.amountFen ?? 0n), 0n);
  return WAGES_XLSX.lines.map(([header, cell, total], i) => {
    if (i === 0) return '合计';
    if (header === '金额') return decimal(formatFen(amount), 2);
    return total === 'sum' ? lines.reduce((a, l) => a + (cell(l) as number), 0) : null;
  });
}

/** A sheet of `records` with `columns`, then the `total` row. */
function sheetOf<R>(columns: readonly (readonly [string, (r: R) => Cell, ...unknown[]])[], records: readonly R[], total: Cell[]): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([columns.map(([h]) => h)]);
  const rows = [...records.map((r) => columns.map(([, cell]) => cell(r))), total];
  XLSX.utils.sheet_add_aoa(sheet, rows.map((row) => row.map((c) => (c !== null && typeof c === 'object' ? { t: 'n', v: c.v, z: c.z } : c))), { origin: 1 });
  sheet['!cols'] = columns.map(([h]) => ({ wch: Math.max(10, h.length * 2 + 2) }));
  return sheet;
}

/** The workbook of `month`'s wages (module docstring), as .xlsx bytes. */
export async function wageWorkbook(q: Queryable, month: string, reader: Reader = WHOLE_READER): Promise<Buffer> {
  const data = await wageExport(q, month, reader);
  const book = XLSX.utils.book_new();
  const priced = new Map<string, number>();
  for (const l of data.lines) if (l.amountFen !== null) priced.set(l.employeePhone, (priced.get(l.employeePhone) ?? 0) + 1);
  const workers = data.workers.map((w) => ({ ...w, pricedLines: priced.get(w.employeePhone) ?? 0 }));
  XLSX.utils.book_append_sheet(book, sheetOf(WAGES_XLSX.summary, workers, summaryTotal(workers)), '汇总');
  XLSX.utils.book_append_sheet(book, sheetOf(WAGES_XLSX.lines, data.lines, linesTotal(data.lines)), '明细');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
