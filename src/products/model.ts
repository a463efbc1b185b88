/**
 * The product record (spec 2.1, table `products`) and its spreadsheet columns.
 *
 * Spreadsheet columns, matched by the exact Chinese names of spec 2.1 (不包含物料转运节拍 and unknown columns
 * such as 备注 are not read). Required in the header row: 项目号, 产品名称, 使用设备, 工序, 标准节拍.
 * Standard cycle time is in seconds (3 decimals), standard workload in pieces per 8-hour day.
 */
import type { ColumnSpec } from '../spreadsheet/headers.ts';

/** A checked product, as stored (without its surrogate id). */
export interface ProductData {
  projectNo: string;
  profileNo: string | null;
  productName: string;
  materialCode: string | null;
  materialName: string | null;
  deviceNo: string;
  processName: string;
  stampingMethod: string | null;
  operatorCount: number | null;
  /** Seconds per piece, > 0, at most 3 decimals. */
  standardCycleSeconds: number;
  /** Pieces per 8-hour day. */
  standardWorkload: number;
}

export interface Product extends ProductData {
  id: number;
  updatedAt: string;
}

export type ProductField = keyof ProductData;

/** Field order (the order of the spreadsheet columns) and the Chinese column name of each field. */
export const PRODUCT_FIELD_LABELS: Readonly<Record<ProductField, string>> = {
  projectNo: '项目号',
  profileNo: '型材号',
  productName: '产品名称',
  materialCode: '物料编码',
  materialName: '物料名称',
  deviceNo: '使用设备',
  processName: '工序',
  stampingMethod: '冲压方式',
  operatorCount: '操作人数',
  standardCycleSeconds: '标准节拍',
  standardWorkload: '标准工作量',
};

export const PRODUCT_FIELDS = Object.keys(PRODUCT_FIELD_LABELS) as ProductField[];

const REQUIRED: ReadonlySet<ProductField> = new Set(['projectNo', 'productName', 'deviceNo', 'processName', 'standardCycleSeconds']);

export const PRODUCT_COLUMNS: readonly ColumnSpec<ProductField>[] = PRODUCT_FIELDS.map((key) => ({
  key,
  header: PRODUCT_FIELD_LABELS[key],
  required: REQUIRED.has(key),
}));

/** The unique key of a product (spec 2.1): project number + product name + device number + process. */
export type ProductKey = Pick<ProductData, 'projectNo' | 'productName' | 'deviceNo' | 'processName'>;

/** One string per unique key (fields joined by a separator no cell text contains). */
export const productKeyString = (p: ProductKey): string => [p.projectNo, p.productName, p.deviceNo, p.processName].join('\u0000');

/** The key as people read it: `项目号 / 产品名称 / 使用设备 / 工序`. */
export const productKeyLabel = (p: ProductKey): string => [p.projectNo, p.productName, p.deviceNo, p.processName].join(' / ');
