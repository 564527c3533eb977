import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { FieldInputError } from './http/errors';
import {
  cellString,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_PARALLEL_PARSES,
  MAX_ROWS,
  readXlsxRows,
  type XlsxLimits,
  type XlsxRow,
} from './xlsx-read';

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const SHEET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_CLOSE = '</sheetData></worksheet>';

/** A zip of the given entries; a function entry is streamed (a bomb is never whole in memory). */
function zip(entries: Record<string, string | (() => Iterable<Buffer>)>): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, body] of Object.entries(entries)) {
    if (typeof body === 'string') z.addBuffer(Buffer.from(body), name);
    else z.addReadStream(Readable.from(body()), name);
  }
  z.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => parts.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    z.outputStream.on('error', reject);
  });
}

/** A workbook whose first sheet is `sheet` (the XML of its rows, or a generator of it). */
const xlsx = (sheet: string | (() => Iterable<Buffer>)) =>
  zip({
    'xl/workbook.xml': WORKBOOK,
    'xl/_rels/workbook.xml.rels': RELS,
    'xl/worksheets/sheet1.xml':
      typeof sheet === 'string'
        ? SHEET_OPEN + sheet + SHEET_CLOSE
        : function* () {
            yield Buffer.from(SHEET_OPEN);
            yield* sheet();
            yield Buffer.from(SHEET_CLOSE);
          },
  });

async function read(buf: Buffer, limits?: Partial<XlsxLimits>) {
  const rows: { line: number; cells: XlsxRow }[] = [];
  await readXlsxRows(buf, (cells, line) => rows.push({ line, cells }), limits);
  return rows;
}

/** The bilingual 400 a refusal is (FieldInputError on `file`), as { zh, en }. */
async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FieldInputError);
  const e = err as FieldInputError;
  expect(e.field).toBe('file');
  return e.text;
}

/** `n` rows of one inline-string cell each, from row `from`. */
function* manyRows(n: number, from = 1) {
  let part = '';
  for (let i = from; i < from + n; i++) {
    part += `<row r="${i}"><c r="A${i}" t="inlineStr"><is><t>x${i}</t></is></c></row>`;
    if (part.length > 60_000) {
      yield Buffer.from(part);
      part = '';
    }
  }
  yield Buffer.from(part);
}

describe('readXlsxRows: what it reads', () => {
  it('reads a workbook made by exceljs: shared strings, numbers, dates, booleans, formulas, rich text, gaps', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Sheet1');
    sheet.addRow(['姓名', 'Age', 'Born', 'Member', 'Note', 'Sum', 'Rich']);
    sheet.addRow([
      '张三',
      42,
      new Date(Date.UTC(1984, 1, 29)),
      true,
      null,
      { formula: 'B2*2', result: 84 },
      { richText: [{ text: 'a' }, { text: 'b' }] },
    ]);
    sheet.getCell('C2').numFmt = 'yyyy-mm-dd';
    sheet.addRow([]);
    sheet.getCell('E4').value = '  spaced  ';
    sheet.getCell('A5').value = 'A & <b>';
    sheet.getCell('B5').value = new Date(Date.UTC(2026, 0, 5, 8, 30));
    const rows = await read(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(rows.map((r) => r.line)).toEqual([1, 2, 4, 5]);
    expect(rows[0].cells).toEqual(['姓名', 'Age', 'Born', 'Member', 'Note', 'Sum', 'Rich']);
    const [name, age, born, member, note, sum, rich] = rows[1].cells;
    expect([name, age, member, note, sum, rich]).toEqual(['张三', 42, true, undefined, 84, 'ab']);
    expect(born).toBeInstanceOf(Date);
    expect(cellString(born)).toBe('1984-02-29');
    expect(rows[2].cells[4]).toBe('  spaced  ');
    expect(rows[2].cells.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(rows[3].cells[0]).toBe('A & <b>');
    expect(cellString(rows[3].cells[1])).toBe('2026-01-05 08:30:00');
  });

  it('reads what our own streamed exports write (strings without the shared table) the same way', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Sheet1');
    sheet.addRow(['a', 'b']);
    sheet.addRow(['一', 2]);
    const shared = await read(Buffer.from(await wb.xlsx.writeBuffer()));
    const parts: Buffer[] = [];
    const { PassThrough } = await import('node:stream');
    const out = new PassThrough();
    out.on('data', (c: Buffer) => parts.push(c));
    const done = new Promise((r) => out.on('end', r));
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useSharedStrings: false,
      useStyles: false,
    });
    const ws = writer.addWorksheet('Sheet1');
    ws.addRow(['a', 'b']).commit();
    ws.addRow(['一', 2]).commit();
    ws.commit();
    await writer.commit();
    await done;
    const inline = Buffer.concat(parts);
    expect(await read(inline)).toEqual(shared);
    expect(shared[1].cells).toEqual(['一', 2]);
  });

  it('reads cells without references, rich inline text without phonetic runs, and the 1904 calendar', async () => {
    const buf = await zip({
      'xl/workbook.xml': WORKBOOK.replace('<sheets>', '<workbookPr date1904="1"/><sheets>'),
      'xl/_rels/workbook.xml.rels': RELS.replace(
        '</Relationships>',
        '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
      ),
      'xl/styles.xml':
        '<styleSheet><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>',
      'xl/worksheets/sheet1.xml': `${SHEET_OPEN}<row><c t="inlineStr"><is><r><t>村</t></r><r><t>民</t></r><rPh><t>cun</t></rPh></is></c><c s="1"><v>0</v></c><c t="b"><v>0</v></c><c t="e"><v>#N/A</v></c><c t="str"><f>A1</f><v>村民</v></c></row>${SHEET_CLOSE}`,
    });
    const [row] = await read(buf);
    expect(row.line).toBe(1);
    expect(row.cells[0]).toBe('村民');
    expect(cellString(row.cells[1])).toBe('1904-01-01');
    expect(row.cells.slice(2)).toEqual([false, undefined, '村民']);
  });
});

describe('readXlsxRows: what it refuses', () => {
  it('refuses what is not a zip, and a zip without a workbook', async () => {
    const notZip = await refusal(read(Buffer.from('name,age\nx,1\n')));
    expect(notZip.en).toBe('The file is not an Excel (.xlsx) workbook');
    expect(notZip.zh).toBe('文件不是有效的 Excel(.xlsx)');
    // starts like a zip, then nothing
    expect((await refusal(read(Buffer.from([0x50, 0x4b, 3, 4, 0, 0])))).en).toContain('not an Excel');
    expect(await refusal(read(await zip({ 'hello.txt': 'hi' })))).toEqual(notZip);
    // a workbook whose sheet is missing
    const noSheet = await zip({ 'xl/workbook.xml': WORKBOOK, 'xl/_rels/workbook.xml.rels': RELS });
    expect(await refusal(read(noSheet))).toEqual(notZip);
    // a sheet that is not XML
    expect(await refusal(read(await xlsx('<row><c><v>1</v></row>')))).toEqual(notZip);
  });

  it('refuses a bomb by its recorded size before inflating it', async () => {
    const row = Buffer.from('<row><c t="inlineStr"><is><t>bomb</t></is></c></row>'.repeat(1000));
    // 240 MB of rows that deflate to well under 1 MB
    const bomb = await xlsx(function* () {
      for (let i = 0; i < 240 * 1024 * 1024; i += row.length) yield row;
    });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const t0 = performance.now();
    const text = await refusal(read(bomb));
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(text).toEqual({
      zh: '文件过大：解压后超过 50 MB',
      en: 'File too large: more than 50 MB uncompressed',
    });
  }, 60_000);

  it('refuses a bomb that lies about its size, as soon as it inflates past it', async () => {
    const row = Buffer.from('<row><c t="inlineStr"><is><t>bomb</t></is></c></row>'.repeat(1000));
    const bomb = await xlsx(function* () {
      for (let i = 0; i < 64 * 1024 * 1024; i += row.length) yield row;
    });
    // the central directory's record of the sheet says 2 MB (offset 24 of the record: uncompressed size)
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    let at = bomb.lastIndexOf(name);
    at -= 46;
    expect(bomb.readUInt32LE(at)).toBe(0x02014b50);
    bomb.writeUInt32LE(2 * 1024 * 1024, at + 24);
    const text = await refusal(read(bomb));
    expect(text.en).toBe('Corrupt file: it inflates to more than its recorded size');
  }, 60_000);

  it('refuses a suspicious compression ratio', async () => {
    const bomb = await xlsx(function* () {
      yield Buffer.from('<row><c t="inlineStr"><is><t>');
      for (let i = 0; i < 8; i++) yield Buffer.alloc(1024 * 1024, 'a');
      yield Buffer.from('</t></is></c></row>');
    });
    const text = await refusal(read(bomb, { maxCellChars: 100 * 1024 * 1024 }));
    expect(text).toEqual({ zh: '文件压缩比异常：超过 100:1', en: 'Suspicious compression: more than 100:1' });
  });

  it('refuses a total past the limit counted while inflating', async () => {
    // 40 000 rows are 2.5 MB of XML; the zip's record is honest, so this is the count while inflating
    const buf = await xlsx(() => manyRows(40_000));
    const text = await refusal(read(buf, { maxBytes: 2 * 1024 * 1024, maxRows: 100_000 }));
    expect(text.en).toBe('File too large: more than 2 MB uncompressed');
  });

  it(`refuses more than ${MAX_ROWS} rows of data`, async () => {
    // the header and MAX_ROWS rows are fine
    expect(await read(await xlsx(() => manyRows(MAX_ROWS + 1)))).toHaveLength(MAX_ROWS + 1);
    const text = await refusal(read(await xlsx(() => manyRows(MAX_ROWS + 2))));
    expect(text).toEqual({
      zh: `行数过多：超过 ${MAX_ROWS} 行`,
      en: `Too many rows: more than ${MAX_ROWS}`,
    });
    // a lower limit of a caller
    expect((await refusal(read(await xlsx(() => manyRows(12)), { maxRows: 10 }))).en).toBe(
      'Too many rows: more than 10',
    );
  }, 60_000);

  it(`refuses a value beyond column ${MAX_COLUMNS}, and reads up to it`, async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Sheet1');
    sheet.getCell(1, MAX_COLUMNS).value = 'last';
    const [row] = await read(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(row.cells[MAX_COLUMNS - 1]).toBe('last');
    sheet.getCell(2, MAX_COLUMNS + 1).value = 'too far';
    const text = await refusal(read(Buffer.from(await wb.xlsx.writeBuffer())));
    expect(text).toEqual({
      zh: `列数过多：超过 ${MAX_COLUMNS} 列`,
      en: `Too many columns: more than ${MAX_COLUMNS}`,
    });
    // an empty styled cell far right is no value: read
    expect(
      await read(
        await xlsx('<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="XFD1" s="0"/></row>'),
      ),
    ).toHaveLength(1);
  });

  it(`refuses a cell longer than ${MAX_CELL_CHARS} characters, inline or shared, and reads one at it`, async () => {
    const at = 'x'.repeat(MAX_CELL_CHARS);
    const [row] = await read(await xlsx(`<row><c t="inlineStr"><is><t>${at}</t></is></c></row>`));
    expect(row.cells[0]).toBe(at);
    const expected = {
      zh: `单元格内容过长：超过 ${MAX_CELL_CHARS} 个字符`,
      en: `Cell too long: more than ${MAX_CELL_CHARS} characters`,
    };
    expect(await refusal(read(await xlsx(`<row><c t="inlineStr"><is><t>${at}y</t></is></c></row>`)))).toEqual(
      expected,
    );
    // 4 MB of incompressible text in one cell: refused while it arrives, not once it is whole
    const huge = randomBytes(3 * 1024 * 1024).toString('base64');
    expect(
      await refusal(read(await xlsx(`<row><c t="inlineStr"><is><t>${huge}</t></is></c></row>`))),
    ).toEqual(expected);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1').getCell('A1').value = `${at}y`;
    expect(await refusal(read(Buffer.from(await wb.xlsx.writeBuffer())))).toEqual(expected);
  });

  it('refuses too many shared strings', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Sheet1');
    for (let i = 0; i < 30; i++) sheet.addRow([`s${i}`]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await read(buf, { maxSharedStrings: 30 })).toHaveLength(30);
    expect((await refusal(read(buf, { maxSharedStrings: 29 }))).en).toBe(
      'Too many shared strings: more than 29',
    );
    expect((await refusal(read(buf, { maxSharedStringChars: 50 }))).en).toBe(
      'Shared strings too large: more than 50 characters',
    );
  });

  it(`parses at most ${MAX_PARALLEL_PARSES} files at once; the others wait their turn`, async () => {
    const buf = await xlsx(() => manyRows(5000));
    let active = 0;
    let most = 0;
    const parse = async () => {
      let first = true;
      await readXlsxRows(buf, () => {
        if (!first) return;
        first = false;
        most = Math.max(most, ++active);
      });
      active--;
    };
    await Promise.all([parse(), parse(), parse(), parse(), parse()]);
    expect(most).toBe(MAX_PARALLEL_PARSES);
  });

  it('lets other work run while a large sheet is parsed', async () => {
    const buf = await xlsx(() => manyRows(MAX_ROWS));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    let rows = 0;
    let ticksSeenByRows = 0;
    await readXlsxRows(buf, () => {
      rows++;
      if (rows === MAX_ROWS) ticksSeenByRows = ticks;
    });
    clearInterval(timer);
    expect(rows).toBe(MAX_ROWS);
    expect(ticksSeenByRows).toBeGreaterThan(0);
  }, 60_000);
});
