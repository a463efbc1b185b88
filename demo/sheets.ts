/**
 * The demo's spreadsheets, written with the xlsx library in the layout factories use: a title row above the
 * Chinese headers, 项目号 merged down over its products, columns the service ignores (不包含物料转运节拍, 备注),
 * the piece rates (计件单价, 不良单价, 生效日期), and a few rows in error. Phones come as numeric cells
 * and as `139-0000-0012`.
 */
import * as XLSX from 'xlsx';

export const PRODUCT_HEADERS = ['项目号', '型材号', '产品名称', '物料编码', '物料名称', '使用设备', '工序', '冲压方式', '操作人数', '不包含物料转运节拍', '标准节拍', '计件单价', '不良单价', '生效日期', '备注'];

/**
 * The good product rows: [项目号, 型材号, 产品名称, 物料编码, 物料名称, 使用设备, 工序, 冲压方式, 操作人数, 不含转运节拍, 标准节拍,
 * 计件单价, 不良单价, 生效日期].
 */
export const DEMO_PRODUCTS = [
  ['XM-2026-101', 'XC-01', '前围横梁', 'M1001', '冷轧钢板 1.2', 'JC-01', '落料', '单冲', 1, 20, 24, 1.25, -0.5, '2026-03-01'],
  ['', 'XC-02', '后围板', 'M1002', '冷轧钢板 1.5', 'JC-01', '冲孔', '连冲', 1, 15, 18, 0.8, 0, '2026-03-01'],
  ['', 'XC-03', '门槛梁', 'M1003', '高强钢 2.0', '2号 压机', '折弯', '单冲', 2, 30, 36, 2.1, -1, '2026-03-01'],
  ['XM-2026-102', 'XC-04', '座椅滑轨', 'M1004', '冷轧钢板 1.0', 'JC-02', '切断', '单冲', 1, 10, 12, 0.3, null, '2026-03-01'],
  ['', 'XC-05', '仪表板支架', 'M1005', '冷轧钢板 1.0', 'JC-02', '修边', '连冲', 1, 25, 30, 0.6, null, '2026-03-01'],
] as const;

/** Rows in error, with the sheet row they land on and why. */
export const DEMO_PRODUCT_ERRORS = [
  { cells: ['', 'XC-06', '', 'M1006', '钢板', 'JC-02', '冲孔', '单冲', 1, 10, 12, null, null, null], why: '缺少产品名称' },
  { cells: ['', 'XC-07', '轮罩内板', 'M1007', '钢板', 'JC-01', '折弯', '单冲', 1, 0, 0, null, null, null], why: '标准节拍为 0' },
  { cells: ['', 'XC-08', '顶盖横梁', 'M1008', '钢板', 'JC-02', '落料', '单冲', -1, 10, 15, null, null, null], why: '操作人数为负' },
];

export const DEMO_PEOPLE = [
  { phone: 13800000001, name: '王管理', role: '管理员' },
  { phone: 13800000002, name: '李经理', role: '经理' },
  { phone: 13800000002, name: '李经理', role: '审核员' },
  { phone: 13900000011, name: '张三', role: '员工' },
  { phone: '139-0000-0012', name: '李四', role: '工人' },
  { phone: '139 0000 0013', name: '王五', role: '操作工' },
];
export const DEMO_PEOPLE_ERRORS = [
  { phone: 12345, name: '赵六', role: '员工', why: '手机号不是 11 位' },
  { phone: 13900000014, name: '钱七', role: '厨师', why: '未知角色' },
  { phone: 13900000011, name: '张三丰', role: '员工', why: '手机号已绑定张三' },
];

/** The product list as .xlsx bytes: title row 1, headers row 2, data from row 3, 项目号 merged per project. */
export function productSheet(): Buffer {
  const rows: unknown[][] = [['冲压车间产品标准节拍表（2026 版）'], PRODUCT_HEADERS];
  for (const p of DEMO_PRODUCTS) rows.push([...p, '']);
  for (const e of DEMO_PRODUCT_ERRORS) rows.push([...e.cells, e.why]);
  const ws = XLSX.utils.aoa_to_sheet(rows);
  // 项目号 merged: rows 3–5 (XM-2026-101) and 6–10 (XM-2026-102 with the error rows); 0-based r.
  ws['!merges'] = [
    { s: { r: 0, c: 0 }, e: { r: 0, c: PRODUCT_HEADERS.length - 1 } },
    { s: { r: 2, c: 0 }, e: { r: 4, c: 0 } },
    { s: { r: 5, c: 0 }, e: { r: 9, c: 0 } },
  ];
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, '产品清单');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** The personnel list as .xlsx bytes: title row, headers 手机号 / 姓名 / 角色, people, then the error rows. */
export function peopleSheet(): Buffer {
  const rows: unknown[][] = [['人员名单'], ['手机号', '姓名', '角色']];
  for (const p of DEMO_PEOPLE) rows.push([p.phone, p.name, p.role]);
  for (const e of DEMO_PEOPLE_ERRORS) rows.push([e.phone, e.name, e.role]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), '人员');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
