import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FieldInputError } from './http/errors';
import { cellString, notXlsx, readXlsxRows } from './xlsx-read';

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

/** A sheet of a workbook: its name, columns and rows (an async generator of row arrays). */
export interface Sheet {
  name: string;
  columns: ExcelColumn[];
  batches: AsyncIterable<Record<string, unknown>[]>;
}

/** A worksheet's name as spreadsheets take it: at most 31 characters, none of : \\ / ? * [ ]. */
const sheetName = (name: string) => name.replace(/[:\\/?*[\]]/g, '-').slice(0, 31) || 'Sheet1';

/**
 * Streams a workbook to the reply: rows come from `batches` (an async generator of row arrays), so a
 * hundred thousand rows never sit in memory together; `more` sheets follow the first, each written whole
 * before the next begins. Every sheet is named (the first by `name`, else the file's name) and keeps its
 * header row in view (frozen) as it scrolls.
 */
export async function sendXlsx(
  reply: FastifyReply,
  fileName: string,
  columns: ExcelColumn[],
  batches: AsyncIterable<Record<string, unknown>[]>,
  more: Sheet[] = [],
  name = fileName,
) {
  const ExcelJS = await loadExcel();
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}.xlsx`)
    .header('cache-control', 'no-store');
  (async () => {
    for (const part of [{ name, columns, batches }, ...more]) {
      const sheet = wb.addWorksheet(sheetName(part.name), { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = part.columns.map((c) => ({ key: c.key, header: c.header, width: c.width ?? 18 }));
      for await (const rows of part.batches) {
        for (const row of rows) {
          const values: Record<string, unknown> = {};
          for (const c of part.columns) values[c.key] = safeCell(row[c.key]);
          sheet.addRow(values).commit();
        }
      }
      sheet.commit();
    }
    await wb.commit();
  })().catch((err) => out.destroy(err));
  return reply.send(out);
}

/** The largest upload read (the same as the multipart plugin's limit): what is bigger is refused unread. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** The uploaded .xlsx of a multipart request, checked by content (a zip holding a workbook). */
export async function readUpload(req: FastifyRequest): Promise<Buffer> {
  const none = () =>
    new FieldInputError('file', { zh: '请选择要导入的文件', en: 'please choose a file to import' });
  let buf: Buffer;
  try {
    const file = await req.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
    if (!file) throw none();
    buf = await file.toBuffer();
  } catch (err) {
    if (err instanceof FieldInputError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new FieldInputError('file', {
        zh: `文件过大：超过 ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`,
        en: `File too large: more than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`,
      });
    // not multipart, an empty or cut-off body: there is no file to read
    throw none();
  }
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) throw notXlsx();
  return buf;
}

/**
 * The first sheet's rows as records keyed by column key, matched by header text (either language). Read as
 * a stream with every limit of xlsx-read.ts checked while it inflates.
 */
export async function readRows(buf: Buffer, columns: (ExcelColumn & { headerEn?: string })[]) {
  const index = new Map<number, string>();
  const rows: { line: number; values: Record<string, string> }[] = [];
  await readXlsxRows(buf, (cells, line) => {
    if (line === 1) {
      cells.forEach((cell, col) => {
        const text = cellString(cell).trim();
        const c = columns.find((x) => x.header === text || x.headerEn === text || x.key === text);
        if (c) index.set(col, c.key);
      });
      return;
    }
    const values: Record<string, string> = {};
    let any = false;
    cells.forEach((cell, col) => {
      const key = index.get(col);
      if (!key) return;
      // a leading apostrophe is how our own exports keep formula-looking text as text
      const text = cellString(cell)
        .trim()
        .replace(/^'(?=[=+\-@])/, '');
      if (text) any = true;
      values[key] = text;
    });
    if (any) rows.push({ line, values });
  });
  return rows;
}
