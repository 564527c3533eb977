import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FieldInputError } from './http/errors';

type ExcelModule = typeof import('exceljs');
let excelModule: Promise<ExcelModule> | undefined;
/** exceljs, loaded with the first spreadsheet: it takes half a second to load, and most starts need none */
export function loadExcel(): Promise<ExcelModule> {
  excelModule ??= import('exceljs').then((m) => (m as unknown as { default: ExcelModule }).default ?? m);
  return excelModule;
}

/** Excel in and out: streamed exports that no spreadsheet can execute, and imports checked by content. */

/** A cell a spreadsheet would run as a formula (= + - @, or a leading tab/CR) is kept as text. */
export function safeCell(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  const s = String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export interface ExcelColumn {
  key: string;
  header: string;
  width?: number;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Streams a workbook to the reply: rows come from `batches` (an async generator of row arrays), so a
 * hundred thousand rows never sit in memory together.
 */
export async function sendXlsx(
  reply: FastifyReply,
  fileName: string,
  columns: ExcelColumn[],
  batches: AsyncIterable<Record<string, unknown>[]>,
) {
  const ExcelJS = await loadExcel();
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = wb.addWorksheet('Sheet1');
  sheet.columns = columns.map((c) => ({ key: c.key, header: c.header, width: c.width ?? 18 }));
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}.xlsx`)
    .header('cache-control', 'no-store');
  (async () => {
    for await (const rows of batches) {
      for (const row of rows) {
        const values: Record<string, unknown> = {};
        for (const c of columns) values[c.key] = safeCell(row[c.key]);
        sheet.addRow(values).commit();
      }
    }
    sheet.commit();
    await wb.commit();
  })().catch((err) => out.destroy(err));
  return reply.send(out);
}

/** The uploaded .xlsx of a multipart request, checked by content (a zip holding a workbook). */
export async function readUpload(req: FastifyRequest): Promise<Buffer> {
  const file = await req.file({ limits: { fileSize: 20 * 1024 * 1024, files: 1 } });
  if (!file)
    throw new FieldInputError('file', { zh: '请选择要导入的文件', en: 'please choose a file to import' });
  const buf = await file.toBuffer();
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50)
    throw new FieldInputError('file', {
      zh: '文件不是有效的 Excel(.xlsx)',
      en: 'The file is not an Excel (.xlsx) workbook',
    });
  return buf;
}

/** The first sheet's rows as records keyed by column key, matched by header text (either language). */
export async function readRows(buf: Buffer, columns: (ExcelColumn & { headerEn?: string })[]) {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw new FieldInputError('file', {
      zh: '文件不是有效的 Excel(.xlsx)',
      en: 'The file is not an Excel (.xlsx) workbook',
    });
  }
  const sheet = wb.worksheets[0];
  if (!sheet) return [];
  const header = sheet.getRow(1);
  const index = new Map<number, string>();
  header.eachCell((cell, col) => {
    const text = String(cell.text ?? '').trim();
    const c = columns.find((x) => x.header === text || x.headerEn === text || x.key === text);
    if (c) index.set(col, c.key);
  });
  const rows: { line: number; values: Record<string, string> }[] = [];
  sheet.eachRow((row, line) => {
    if (line === 1) return;
    const values: Record<string, string> = {};
    let any = false;
    row.eachCell((cell, col) => {
      const key = index.get(col);
      if (!key) return;
      // a leading apostrophe is how our own exports keep formula-looking text as text
      const text = String(cell.text ?? '')
        .trim()
        .replace(/^'(?=[=+\-@])/, '');
      if (text) any = true;
      values[key] = text;
    });
    if (any) rows.push({ line, values });
  });
  return rows;
}
