/**
 * Hostile spreadsheets, made here from their parts: honest and lying zip bombs, huge
 * declared dimensions and merges, many shared strings, deep XML, entity declarations, external links, formulas,
 * non-spreadsheets renamed `.xlsx`, truncated files, and legacy `.xls` files with a broken or cyclic sector chain.
 * Used by test/imports/hostile-workbooks.test.ts, the process test and `npm run bench -- import`.
 *
 * `xlsxOf(parts)` zips a minimal workbook (content types, relationships, workbook, one sheet `Sheet1`) with the
 * given parts replaced or added (name → XML text or bytes); `sheetXml(rowsXml, extra)` is a sheet document;
 * `HOSTILE_FILES` lists each hostile file with its name and the answer expected (status and codes).
 */
import { constants, deflateRawSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import * as XLSX from 'xlsx';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = (sheetName = 'Sheet1') => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

/** The header row of a product list (required columns only) as inline-string cells of row 1. */
export const PRODUCT_HEADER_XML = rowXml(1, ['项目号', '产品名称', '使用设备', '工序', '标准节拍']);

/** A row `r` of inline-string (or numeric) cells from column A on. */
export function rowXml(r: number, values: readonly (string | number)[]): string {
  const cells = values.map((v, i) => {
    const ref = XLSX.utils.encode_col(i) + r;
    return typeof v === 'number' ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
  });
  return `<row r="${r}">${cells.join('')}</row>`;
}

/** A worksheet document: `rows` inside sheetData, `before` ahead of it (dimension…), `after` behind it (mergeCells…). */
export function sheetXml(rows: string, opts: { before?: string; after?: string; prolog?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${opts.prolog ?? ''}
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${opts.before ?? ''}<sheetData>${rows}</sheetData>${opts.after ?? ''}</worksheet>`;
}

/** A good product sheet of `n` data rows (inline strings). */
export function productRowsXml(n: number, from = 2): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) rows.push(rowXml(from + i, ['P1', `产品${i}`, 'JC-01', '落料', 30]));
  return rows.join('');
}

/** A minimal .xlsx of the parts given over the defaults (module docstring); `level` 0 stores, 9 deflates. */
export function xlsxOf(parts: Record<string, string | Uint8Array>, opts: { level?: 0 | 9; sheetName?: string } = {}): Buffer {
  const all: Record<string, string | Uint8Array> = {
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS,
    'xl/workbook.xml': WORKBOOK(opts.sheetName),
    'xl/_rels/workbook.xml.rels': WORKBOOK_RELS,
    'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(3)),
    ...parts,
  };
  const files: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(all)) files[k] = typeof v === 'string' ? strToU8(v) : v;
  return Buffer.from(zipSync(files, { level: opts.level ?? 9 }));
}

/**
 * A zip of one entry `name` whose deflated data inflates to `inflated` bytes of `fill` (a repeated XML-ish text),
 * built chunk by chunk so that the test never holds the inflated bytes. `declared` is the uncompressed size the
 * local header, the data descriptor and the central directory claim (the lie), `inflated` when absent.
 */
export function zipBomb(inflated: number, opts: { declared?: number; name?: string; fill?: string } = {}): Buffer {
  const name = Buffer.from(opts.name ?? 'xl/worksheets/sheet1.xml');
  const unit = Buffer.from(opts.fill ?? '<row><c><v>0</v></c></row>');
  const block = Buffer.alloc(1 << 20);
  for (let i = 0; i < block.length; i++) block[i] = unit[i % unit.length];
  // 1 MiB deflated once with a full flush (byte-aligned, no final block, no reference to what came before), then
  // repeated: each copy inflates to the same MiB; an empty final block ends the stream.
  const oneBlock = deflateRawSync(block, { finishFlush: constants.Z_FULL_FLUSH });
  const count = Math.floor(inflated / block.length);
  const pieces: Buffer[] = [];
  for (let i = 0; i < count; i++) pieces.push(oneBlock);
  pieces.push(deflateRawSync(block.subarray(0, inflated - count * block.length)));
  const data = Buffer.concat(pieces);
  const declared = opts.declared ?? inflated;
  const crc = 0; // never checked before the size: a bomb is refused on its size
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 6); // data descriptor follows
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(crc, 4);
  descriptor.writeUInt32LE(data.length, 8);
  descriptor.writeUInt32LE(declared, 12);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + name.length + data.length + descriptor.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, name, data, descriptor, central, name, end]);
}

/** One hostile upload: how to make it, its file name, and the answers it may get (status and error code, or 200). */
export interface HostileFile {
  name: string;
  fileName: string;
  build(): Buffer;
  /** Acceptable answers: `[status, code?]`. */
  expect: readonly (readonly [number, string?])[];
}

const MiB = 1024 * 1024;
const sst = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${n}" uniqueCount="${n}">${'<si><t>x</t></si>'.repeat(n)}</sst>`;

/** A valid `.xls` of a product list, as the legacy format's corruptions start from. */
function productXls(): Buffer {
  const ws = XLSX.utils.aoa_to_sheet([['项目号', '产品名称', '使用设备', '工序', '标准节拍'], ['P1', '产品', 'JC-01', '落料', 30]]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Sheet1');
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xls' }));
}

/** Every hostile file of the suite (module docstring). Builds are lazy: some take a second. */
export const HOSTILE_FILES: readonly HostileFile[] = [
  { name: 'honest zip bomb (1 GiB declared)', fileName: 'bomb.xlsx', build: () => zipBomb(1024 * MiB), expect: [[422, 'SPREADSHEET_TOO_LARGE']] },
  {
    name: 'lying zip bomb (2 GiB, directory says 4 kB)',
    fileName: 'liar.xlsx',
    build: () => zipBomb(2048 * MiB, { declared: 4096 }),
    expect: [[422, 'UNREADABLE_SPREADSHEET']],
  },
  {
    name: 'lying zip bomb just under the cap (40 MB declared, 1 GiB inside)',
    fileName: 'liar2.xlsx',
    build: () => zipBomb(1024 * MiB, { declared: 40 * MiB }),
    expect: [[422, 'UNREADABLE_SPREADSHEET'], [422, 'SPREADSHEET_TOO_LARGE']],
  },
  {
    name: 'many honest entries (80 × 1 MiB)',
    fileName: 'many.xlsx',
    build: () => {
      const parts: Record<string, Uint8Array> = {};
      for (let i = 0; i < 80; i++) parts[`xl/media/image${i}.xml`] = new Uint8Array(MiB).fill(0x20);
      return xlsxOf(parts);
    },
    expect: [[422, 'SPREADSHEET_TOO_LARGE']],
  },
  {
    name: 'dimension declaring 1,048,576 rows × 16,384 columns',
    fileName: 'dimension.xlsx',
    build: () => xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(3), { before: '<dimension ref="A1:XFD1048576"/>' }) }),
    expect: [[422, 'TOO_MANY_ROWS']],
  },
  {
    name: 'dimension declaring 16,384 columns',
    fileName: 'columns.xlsx',
    build: () => xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(3), { before: '<dimension ref="A1:XFD4"/>' }) }),
    expect: [[200]],
  },
  {
    name: '1,500,000 real rows',
    fileName: 'rows.xlsx',
    build: () => {
      const rows: string[] = [PRODUCT_HEADER_XML];
      for (let r = 2; r < 1_500_000; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>1</v></c></row>`);
      return xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(rows.join('')) });
    },
    expect: [[422, 'TOO_MANY_ROWS'], [422, 'SPREADSHEET_TOO_LARGE']],
  },
  {
    name: '4,000,000 cells in 45,000 rows',
    fileName: 'cells.xlsx',
    build: () => {
      const cells = '<c><v>1</v></c>'.repeat(90);
      const rows: string[] = [PRODUCT_HEADER_XML];
      for (let r = 2; r < 45_000; r++) rows.push(`<row>${cells}</row>`);
      return xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(rows.join('')) });
    },
    expect: [[422, 'SPREADSHEET_TOO_LARGE']],
  },
  {
    name: 'rich text of 3,000,000 runs in 1,000 text cells',
    fileName: 'runs.xlsx',
    build: () => {
      const runs = '<r><t>x</t></r>'.repeat(3_000);
      const rows: string[] = [PRODUCT_HEADER_XML];
      for (let r = 2; r < 1_002; r++) rows.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is>${runs}</is></c></row>`);
      return xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(rows.join('')) });
    },
    expect: [[422, 'SPREADSHEET_TOO_LARGE'], [200]],
  },
  {
    name: 'a merged range over the whole sheet',
    fileName: 'merge.xlsx',
    build: () => xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(3), { after: '<mergeCells count="1"><mergeCell ref="A2:XFD1048576"/></mergeCells>' }) }),
    expect: [[200]],
  },
  {
    name: '500,000 overlapping merged ranges',
    fileName: 'merges.xlsx',
    build: () => xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(3), { after: `<mergeCells>${'<mergeCell ref="A2:E50000"/>'.repeat(500_000)}</mergeCells>` }) }),
    expect: [[422, 'UNREADABLE_SPREADSHEET']],
  },
  {
    name: '400,000 shared strings',
    fileName: 'sst.xlsx',
    build: () => xlsxOf({ 'xl/sharedStrings.xml': sst(400_000) }),
    expect: [[422, 'SPREADSHEET_TOO_LARGE']],
  },
  {
    name: 'one 32,767-character shared string in every cell of 40,000 rows',
    fileName: 'repeat.xlsx',
    build: () => {
      const rows: string[] = [PRODUCT_HEADER_XML];
      const c = (col: string, r: number, s: number) => `<c r="${col}${r}" t="s"><v>${s}</v></c>`;
      for (let r = 2; r < 40_000; r++) rows.push(`<row r="${r}">${c('A', r, 0)}${c('B', r, 0)}${c('C', r, 0)}${c('D', r, 0)}<c r="E${r}"><v>30</v></c></row>`);
      const big = `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${'长'.repeat(32_767)}</t></si></sst>`;
      return xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(rows.join('')), 'xl/sharedStrings.xml': big });
    },
    expect: [[422, 'SPREADSHEET_TOO_LARGE']],
  },
  {
    name: 'XML nested 1,000,000 deep',
    fileName: 'deep.xlsx',
    build: () =>
      xlsxOf({
        'xl/worksheets/sheet1.xml': sheetXml(
          PRODUCT_HEADER_XML + productRowsXml(3) + `<row r="5"><c r="A5" t="inlineStr"><is>${'<r>'.repeat(1_000_000)}<t>x</t>${'</r>'.repeat(1_000_000)}</is></c></row>`,
          { after: `<extLst>${'<ext>'.repeat(1_000_000)}${'</ext>'.repeat(1_000_000)}</extLst>` },
        ),
      }),
    expect: [[200]],
  },
  {
    name: 'entity declarations (billion laughs)',
    fileName: 'entities.xlsx',
    build: () => {
      let ents = '<!ENTITY lol0 "lol">';
      for (let i = 1; i < 10; i++) ents += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
      return xlsxOf({
        'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + '<row r="2"><c r="A2" t="inlineStr"><is><t>&lol9;</t></is></c></row>', {
          prolog: `<!DOCTYPE worksheet [${ents}]>`,
        }),
      });
    },
    expect: [[422, 'UNREADABLE_SPREADSHEET']],
  },
  {
    name: 'an external entity (file and URL)',
    fileName: 'xxe.xlsx',
    build: () =>
      xlsxOf({
        'xl/sharedStrings.xml': `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY web SYSTEM "http://127.0.0.1:9/x">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&xxe;&web;</t></si></sst>`,
      }),
    expect: [[422, 'UNREADABLE_SPREADSHEET']],
  },
  {
    name: 'formulas without saved values, and ones that would reach the network',
    fileName: 'formulas.xlsx',
    build: () =>
      xlsxOf({
        'xl/worksheets/sheet1.xml': sheetXml(
          PRODUCT_HEADER_XML +
            `<row r="2"><c r="A2" t="inlineStr"><is><t>P1</t></is></c><c r="B2" t="str"><f>WEBSERVICE("http://127.0.0.1:9/")</f></c><c r="C2"><f>1/0</f></c><c r="D2" t="inlineStr"><is><t>落料</t></is></c><c r="E2"><f>HYPERLINK("http://127.0.0.1:9/","x")</f></c></row>`,
        ),
      }),
    expect: [[200]],
  },
  {
    name: 'an external link to another workbook',
    fileName: 'links.xlsx',
    build: () =>
      xlsxOf({
        'xl/_rels/workbook.xml.rels': WORKBOOK_RELS.replace(
          '</Relationships>',
          '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/></Relationships>',
        ),
        'xl/externalLinks/externalLink1.xml': `<?xml version="1.0"?><externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><externalBook r:id="rId1"/></externalLink>`,
        'xl/externalLinks/_rels/externalLink1.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="http://127.0.0.1:9/other.xlsx" TargetMode="External"/></Relationships>`,
        'xl/workbook.xml': WORKBOOK().replace('</workbook>', '<externalReferences><externalReference r:id="rId9"/></externalReferences></workbook>'),
      }),
    expect: [[200]],
  },
  {
    name: 'sheets named __proto__ and constructor, one listed without its part',
    fileName: 'proto.xlsx',
    build: () =>
      xlsxOf({
        'xl/workbook.xml': WORKBOOK('__proto__').replace('</sheets>', '<sheet name="constructor" sheetId="2" r:id="rId7"/></sheets>'),
      }),
    // A sheet named __proto__ becomes the prototype of SheetJS's sheet table, not a sheet of it: no sheet is read.
    expect: [[200], [422, 'EMPTY_SHEET']],
  },
  { name: 'a PNG renamed .xlsx', fileName: 'image.xlsx', build: () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), expect: [[422, 'NOT_A_SPREADSHEET']] },
  { name: 'a text file renamed .xlsx', fileName: 'list.xlsx', build: () => Buffer.from('项目号,产品名称\nP1,产品\n'), expect: [[422, 'NOT_A_SPREADSHEET']] },
  { name: 'a zip that is no workbook', fileName: 'readme.xlsx', build: () => Buffer.from(zipSync({ 'readme.txt': strToU8('hello') })), expect: [[422, 'UNREADABLE_SPREADSHEET']] },
  {
    name: 'an .xlsx cut in half',
    fileName: 'cut.xlsx',
    build: () => {
      const whole = xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(500)) });
      return whole.subarray(0, Math.floor(whole.length / 2));
    },
    expect: [[422, 'UNREADABLE_SPREADSHEET']],
  },
  { name: 'an .xls cut in half', fileName: 'cut.xls', build: () => productXls().subarray(0, 1800), expect: [[422, 'UNREADABLE_SPREADSHEET']] },
  {
    name: 'an .xls whose sector chain loops',
    fileName: 'loop.xls',
    build: () => {
      const xls = productXls();
      const fat = (xls.readUInt32LE(76) + 1) * 512;
      for (let i = 0; i < 128; i++) xls.writeUInt32LE(i, fat + i * 4);
      return xls;
    },
    expect: [[422, 'UNREADABLE_SPREADSHEET']],
  },
  {
    name: 'an .xls declaring 2^31 FAT sectors',
    fileName: 'fat.xls',
    build: () => {
      const xls = productXls();
      xls.writeUInt32LE(0x7fffffff, 44);
      return xls;
    },
    expect: [[200], [422, 'UNREADABLE_SPREADSHEET']],
  },
];
