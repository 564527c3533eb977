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
  const s = typeof v === 'string' ? v : String(v);
  // = + - @ tab CR
  const c = s.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 ? `'${s}` : s;
}

export interface ExcelColumn {
  key: string;
  header: string;
  width?: number;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A batch of a sheet's rows: records keyed by column key, or arrays of cells in the columns' order (what an
 * export that formats its own rows hands over: no key is looked up per cell).
 */
export type RowBatch = Record<string, unknown>[] | unknown[][];

/** A sheet of a workbook: its name, columns and rows (an async generator of row batches). */
export interface Sheet {
  name: string;
  columns: ExcelColumn[];
  batches: AsyncIterable<RowBatch>;
}

/** A worksheet's name as spreadsheets take it: at most 31 characters, none of : \\ / ? * [ ]. */
export const sheetName = (name: string) => name.replace(/[:\\/?*[\]]/g, '-').slice(0, 31) || 'Sheet1';

/** a stream's writable side, as Node and readable-stream 2 (exceljs's archiver) both keep it */
interface Backlog {
  _writableState?: { needDrain?: boolean; length?: number };
  once(event: 'drain', fn: () => void): unknown;
  removeListener(event: 'drain', fn: () => void): unknown;
}

/**
 * Where a streamed worksheet's XML waits to be compressed: exceljs writes each committed row to the sheet's
 * buffer, which hands it on to the stream archiver put in front of the deflater without waiting, so a
 * writer faster than the deflater and the client would hold the whole sheet in memory. Waiting for this
 * stream to drain once it holds more than BACKLOG_BYTES is the back pressure (the client reads → the zip
 * deflates → it drains).
 * Undefined where exceljs keeps it otherwise (then no waiting: a later exceljs is caught by excel.test.ts).
 */
function backlogOf(sheet: unknown): Backlog | undefined {
  const pipe = (sheet as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0] as Backlog | undefined;
  return pipe && typeof pipe.once === 'function' && pipe._writableState ? pipe : undefined;
}

/** rows written between two looks at the backlog */
const SLICE = 100;

/** the XML that may wait to be compressed before the writer waits: the deflater always has work */
const BACKLOG_BYTES = 512 * 1024;

/** Resolves once `backlog` has drained (at once when it needs not), or `out` is gone. */
function drained(backlog: Backlog | undefined, out: PassThrough): Promise<void> | undefined {
  const state = backlog?._writableState;
  if (!backlog || !state?.needDrain || (state.length ?? 0) < BACKLOG_BYTES || out.destroyed) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      backlog.removeListener('drain', done);
      out.off('close', done);
      resolve();
    };
    backlog.once('drain', done);
    out.once('close', done);
  });
}

/**
 * Streams a workbook to the reply: rows come from `batches` (an async generator of row batches), so a
 * hundred thousand rows never sit in memory together; `more` sheets follow the first, each written whole
 * before the next begins. Every sheet is named (the first by `name`, else the file's name) and keeps its
 * header row in view (frozen) as it scrolls. The next batch is asked for before the current one is written
 * (the database reads while the rows are turned into XML), and no batch is asked for while the XML written
 * waits to be compressed (`drained`): memory holds a batch or two, whatever the client's speed. A client
 * that goes away stops the reading.
 */
export async function sendXlsx(
  reply: FastifyReply,
  fileName: string,
  columns: ExcelColumn[],
  batches: AsyncIterable<RowBatch>,
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
      const keys = part.columns.map((c) => c.key);
      const it = part.batches[Symbol.asyncIterator]();
      let next = it.next();
      let finished = false;
      try {
        for (;;) {
          const { done, value: rows } = await next;
          if (done) {
            finished = true;
            break;
          }
          if (out.destroyed) return;
          next = it.next();
          // the next read runs while this batch is written; its failure is the loop's, when awaited
          next.catch(() => {});
          for (let start = 0; start < rows.length; start += SLICE) {
            const end = Math.min(rows.length, start + SLICE);
            for (let r = start; r < end; r++) {
              const row = rows[r];
              const values = new Array<string | number | null>(keys.length);
              if (Array.isArray(row)) for (let i = 0; i < keys.length; i++) values[i] = safeCell(row[i]);
              else for (let i = 0; i < keys.length; i++) values[i] = safeCell(row[keys[i]]);
              sheet.addRow(values).commit();
            }
            await drained(backlogOf(sheet), out);
          }
        }
      } finally {
        // a client gone or a failure: the generator's own cleanup runs (its reads stop)
        if (!finished) await it.return?.();
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
