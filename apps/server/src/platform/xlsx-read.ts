import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { FieldInputError } from './http/errors';

/**
 * The first sheet of an uploaded .xlsx, read as a stream of rows with every limit checked while the file
 * inflates (security issue 12): a 1 MB upload can unpack to gigabytes, and exceljs's `xlsx.load` inflates
 * and models all of it before anyone can look. Here a zip's recorded sizes only serve to refuse early: the
 * bytes actually inflated are counted (more than recorded is refused too), the parse stops at the first
 * limit passed, and the answer is a 400 naming the limit. The zip's directory is read with yauzl (lazy
 * entries), each entry inflated by node:zlib, and the XML parsed by saxes (SAX: memory is the current row,
 * the shared strings and what the caller keeps).
 */

/**
 * All XML inflated for one file: bounds the CPU time of a parse (≈ 1.5 s at 50 MB) whatever the zip says.
 * With MAX_ROWS it admits 50 000 rows of about 25 columns (a wider file of that many rows is split).
 */
export const MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;
/**
 * Inflated:compressed of one entry. Real sheets deflate 5–30:1; a bomb is a run of repeated bytes at
 * 200–1000:1. Checked once an entry has inflated more than MIN_RATIO_BYTES (tiny entries compress oddly).
 */
export const MAX_COMPRESSION_RATIO = 100;
export const MIN_RATIO_BYTES = 1024 * 1024;
/**
 * Rows of data (the header row aside) holding a value. The import keeps every row in memory and checks
 * each; 50 000 is five times the import the bench measures, and bounds that memory.
 */
export const MAX_ROWS = 50_000;
/** Columns: resources have a few dozen at most; a value beyond this column is refused. */
export const MAX_COLUMNS = 200;
/** Characters of one cell: Excel's own limit, so no workbook Excel wrote is refused for it. */
export const MAX_CELL_CHARS = 32_767;
/** Shared strings: their table is held in memory for the whole parse (count and total characters). */
export const MAX_SHARED_STRINGS = 1_000_000;
export const MAX_SHARED_STRING_CHARS = 20_000_000;
/** Entries of the zip (a workbook has a dozen; millions of empty entries are a cheap attack too). */
export const MAX_ENTRIES = 10_000;
/**
 * Rows (or inflated bytes: a sheet of empty cells has no rows) parsed between two yields to the event loop,
 * a few milliseconds of work: other requests are answered while a large import is parsed.
 */
const YIELD_EVERY_ROWS = 500;
const YIELD_EVERY_BYTES = 256 * 1024;
/**
 * Parses at once per process. Each holds its shared strings, the rows its caller keeps and inflate buffers
 * (tens of MB at the limits); two bound that memory whatever number of uploads arrive together. They share
 * the one event loop, so more at once would not finish sooner. A third upload waits for a free slot.
 */
export const MAX_PARALLEL_PARSES = 2;

export type XlsxValue = string | number | boolean | Date;
/** One row: cells by column (0 = A); a missing or empty cell is `undefined`. */
export type XlsxRow = (XlsxValue | undefined)[];

export interface XlsxLimits {
  maxBytes: number;
  maxRatio: number;
  maxRows: number;
  maxColumns: number;
  maxCellChars: number;
  maxSharedStrings: number;
  maxSharedStringChars: number;
}

const DEFAULT_LIMITS: XlsxLimits = {
  maxBytes: MAX_UNCOMPRESSED_BYTES,
  maxRatio: MAX_COMPRESSION_RATIO,
  maxRows: MAX_ROWS,
  maxColumns: MAX_COLUMNS,
  maxCellChars: MAX_CELL_CHARS,
  maxSharedStrings: MAX_SHARED_STRINGS,
  maxSharedStringChars: MAX_SHARED_STRING_CHARS,
};

const refuse = (zh: string, en: string) => new FieldInputError('file', { zh, en });
export const notXlsx = () =>
  refuse('文件不是有效的 Excel(.xlsx)', 'The file is not an Excel (.xlsx) workbook');
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

// ---------------------------------------------------------------------------------------------------------
// at most MAX_PARALLEL_PARSES at once

let running = 0;
const waiting: (() => void)[] = [];
async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL_PARSES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

// ---------------------------------------------------------------------------------------------------------
// the zip

async function openZip(buf: Buffer): Promise<{ zip: ZipFile; entries: Map<string, Entry> }> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw notXlsx();
  }
  const entries = new Map<string, Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: Entry) => {
      if (entries.size >= MAX_ENTRIES) {
        zip.close();
        reject(
          refuse(`文件内容过多：超过 ${MAX_ENTRIES} 个部件`, `Too many parts: more than ${MAX_ENTRIES}`),
        );
        return;
      }
      entries.set(e.fileName.replace(/^\/+/, ''), e);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    // kept for the zip's life: an error without a listener would end the process
    zip.on('error', () => reject(notXlsx()));
    zip.readEntry();
  });
  return { zip, entries };
}

/** Counts what the entries of one file inflate, across entries, while they inflate. */
class Budget {
  used = 0;
  constructor(readonly limits: XlsxLimits) {}
  add(entry: Entry, entryBytes: number, n: number) {
    this.used += n;
    this.check(entry, entryBytes, this.used);
  }
  check(entry: Entry, entryBytes: number, total: number) {
    if (total > this.limits.maxBytes)
      throw refuse(
        `文件过大：解压后超过 ${mb(this.limits.maxBytes)}`,
        `File too large: more than ${mb(this.limits.maxBytes)} uncompressed`,
      );
    if (entryBytes > MIN_RATIO_BYTES && entryBytes > this.limits.maxRatio * Math.max(1, entry.compressedSize))
      throw refuse(
        `文件压缩比异常：超过 ${this.limits.maxRatio}:1`,
        `Suspicious compression: more than ${this.limits.maxRatio}:1`,
      );
  }
}

/**
 * Feeds one entry's XML to a SAX parser chunk by chunk; `afterChunk` runs between chunks (checks, yields).
 * The entry's recorded sizes are checked first (a bomb that says what it is, is refused before inflating a
 * byte); then the bytes actually inflated are counted as they come, and more than recorded is refused, so
 * a bomb that lies about its size stops there.
 */
async function parseEntry(
  zip: ZipFile,
  entry: Entry,
  budget: Budget,
  handlers: (parser: SaxesParser) => void,
  afterChunk?: (bytes: number) => Promise<void> | void,
) {
  budget.check(entry, entry.uncompressedSize, budget.used + entry.uncompressedSize);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw notXlsx();
  let raw: Readable;
  try {
    raw = (await zip.openReadStreamPromise(entry, { decompress: false })) as Readable;
  } catch {
    throw notXlsx();
  }
  // our own inflater: larger chunks than yauzl's (a 37 MB sheet inflates ~10× faster in 64 KB pieces)
  const stream = entry.compressionMethod === 8 ? raw.pipe(createInflateRaw({ chunkSize: 64 * 1024 })) : raw;
  if (stream !== raw) raw.on('error', (err) => stream.destroy(err));
  const parser = new SaxesParser({ xmlns: false, position: false });
  let xmlError = false;
  parser.on('error', () => {
    xmlError = true;
  });
  handlers(parser);
  const decoder = new StringDecoder('utf8');
  let entryBytes = 0;
  const pending = parser as unknown as { text?: string };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      entryBytes += chunk.length;
      if (entryBytes > entry.uncompressedSize) throw sizeLies();
      budget.add(entry, entryBytes, chunk.length);
      parser.write(decoder.write(chunk));
      if (xmlError) throw notXlsx();
      // saxes keeps a text node whole until its end tag: a gigabyte cell is refused while it arrives
      if (typeof pending.text === 'string' && pending.text.length > budget.limits.maxCellChars)
        throw cellTooLong(budget.limits.maxCellChars);
      await afterChunk?.(chunk.length);
    }
    if (entryBytes !== entry.uncompressedSize) throw notXlsx();
    parser.write(decoder.end());
    parser.close();
  } catch (err) {
    raw.destroy();
    stream.destroy();
    if (err instanceof FieldInputError) throw err;
    // a corrupt deflate stream, sizes that do not match, malformed XML
    throw notXlsx();
  }
  if (xmlError) throw notXlsx();
}

const sizeLies = () =>
  refuse('文件已损坏：解压后大于其记录的大小', 'Corrupt file: it inflates to more than its recorded size');
const cellTooLong = (n: number) =>
  refuse(`单元格内容过长：超过 ${n} 个字符`, `Cell too long: more than ${n} characters`);

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

// ---------------------------------------------------------------------------------------------------------
// workbook, relationships, styles, shared strings

/** Excel's built-in date formats: 14–22 everywhere, 27–36 and 45–58 in East Asian locales. */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/** A format code is a date when, outside quotes and [..], it has date or time letters (exceljs's rule). */
function isDateFormat(code: string) {
  const bare = code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhMsb]+/.test(bare);
}

function resolveTarget(target: string, base = 'xl/') {
  if (target.startsWith('/')) return target.slice(1);
  const parts = (base + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

interface Book {
  sheetPath: string;
  sharedStringsPath?: string;
  stylesPath?: string;
  date1904: boolean;
}

async function readBook(zip: ZipFile, entries: Map<string, Entry>, budget: Budget): Promise<Book> {
  const workbook = entries.get('xl/workbook.xml');
  if (!workbook) throw notXlsx();
  let firstSheetRel: string | undefined;
  let date1904 = false;
  await parseEntry(zip, workbook, budget, (p) =>
    p.on('opentag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'workbookPr') {
        const v = tag.attributes.date1904;
        date1904 = v === '1' || v === 'true';
      } else if (name === 'sheet' && firstSheetRel === undefined) {
        for (const [k, v] of Object.entries(tag.attributes))
          if (k.includes(':') && localName(k) === 'id') firstSheetRel = v;
      }
    }),
  );
  const targets = new Map<string, string>();
  let sharedStringsPath: string | undefined;
  let stylesPath: string | undefined;
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  if (rels)
    await parseEntry(zip, rels, budget, (p) =>
      p.on('opentag', (tag: SaxesTagPlain) => {
        if (localName(tag.name) !== 'Relationship') return;
        const { Id, Target, Type = '' } = tag.attributes;
        if (!Target || tag.attributes.TargetMode === 'External') return;
        const path = resolveTarget(Target);
        if (Id) targets.set(Id, path);
        if (Type.endsWith('/sharedStrings')) sharedStringsPath = path;
        if (Type.endsWith('/styles')) stylesPath = path;
      }),
    );
  const sheetPath =
    (firstSheetRel && targets.get(firstSheetRel)) ||
    (entries.has('xl/worksheets/sheet1.xml') ? 'xl/worksheets/sheet1.xml' : undefined);
  if (!sheetPath || !entries.has(sheetPath)) throw notXlsx();
  return {
    sheetPath,
    sharedStringsPath:
      sharedStringsPath ?? (entries.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : undefined),
    stylesPath: stylesPath ?? (entries.has('xl/styles.xml') ? 'xl/styles.xml' : undefined),
    date1904,
  };
}

/** The cell styles (index of `s="…"`) whose number format is a date. */
async function readDateStyles(zip: ZipFile, entry: Entry, budget: Budget): Promise<Set<number>> {
  const custom = new Map<number, string>();
  const xfs: number[] = [];
  let inCellXfs = false;
  await parseEntry(zip, entry, budget, (p) => {
    p.on('opentag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'numFmt')
        custom.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs && xfs.length < 65_536)
        xfs.push(Number(tag.attributes.numFmtId ?? 0));
    });
    p.on('closetag', (tag) => {
      if (localName(tag.name) === 'cellXfs') inCellXfs = false;
    });
  });
  const dates = new Set<number>();
  xfs.forEach((id, i) => {
    const code = custom.get(id);
    if (code !== undefined ? isDateFormat(code) : BUILTIN_DATE_FORMATS.has(id)) dates.add(i);
  });
  return dates;
}

/** The shared strings (rich text runs joined, phonetic runs left out), within their limits. */
async function readSharedStrings(zip: ZipFile, entry: Entry, budget: Budget): Promise<string[]> {
  const { maxSharedStrings, maxSharedStringChars, maxCellChars } = budget.limits;
  const out: string[] = [];
  let chars = 0;
  let inT = false;
  let phonetic = 0;
  let current = '';
  await parseEntry(zip, entry, budget, (p) => {
    p.on('opentag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'si') {
        current = '';
        if (out.length >= maxSharedStrings)
          throw refuse(
            `共享字符串过多：超过 ${maxSharedStrings} 个`,
            `Too many shared strings: more than ${maxSharedStrings}`,
          );
      } else if (name === 'rPh') phonetic++;
      else if (name === 't' && !phonetic) inT = true;
    });
    p.on('text', (text) => {
      if (!inT) return;
      current += text;
      if (current.length > maxCellChars) throw cellTooLong(maxCellChars);
    });
    p.on('closetag', (tag) => {
      const name = localName(tag.name);
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        chars += current.length;
        if (chars > maxSharedStringChars)
          throw refuse(
            `共享字符串过大：超过 ${maxSharedStringChars} 个字符`,
            `Shared strings too large: more than ${maxSharedStringChars} characters`,
          );
        out.push(current);
      }
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// the sheet

/** "C5" → 2 (0-based column), or -1 without letters; big references stop early (they are refused anyway). */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
    else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
    else break;
    if (col > 1_000_000) return col;
  }
  return i === 0 ? -1 : col - 1;
}

const excelToDate = (v: number, date1904: boolean) =>
  new Date(Math.round((v - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));

/**
 * Reads the first sheet of `buf`, calling `onRow(cells, line)` for each row that has a cell (`line` is the
 * sheet's 1-based row number). Values: strings (shared, inline, formula results), numbers, booleans, and
 * Dates for numbers in a date format. Throws FieldInputError (400) for a file that is not a workbook or
 * passes a limit, naming the limit.
 */
export function readXlsxRows(
  buf: Buffer,
  onRow: (cells: XlsxRow, line: number) => void,
  limits: Partial<XlsxLimits> = {},
): Promise<void> {
  const all: XlsxLimits = { ...DEFAULT_LIMITS, ...limits };
  return withSlot(() => readRowsNow(buf, onRow, all));
}

async function readRowsNow(buf: Buffer, onRow: (cells: XlsxRow, line: number) => void, limits: XlsxLimits) {
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) throw notXlsx();
  const { zip, entries } = await openZip(buf);
  try {
    const budget = new Budget(limits);
    const book = await readBook(zip, entries, budget);
    const stylesEntry = book.stylesPath ? entries.get(book.stylesPath) : undefined;
    const dateStyles = stylesEntry ? await readDateStyles(zip, stylesEntry, budget) : new Set<number>();
    const sstEntry = book.sharedStringsPath ? entries.get(book.sharedStringsPath) : undefined;
    const shared = sstEntry ? await readSharedStrings(zip, sstEntry, budget) : [];
    await readSheetRows(zip, entries.get(book.sheetPath)!, budget, shared, dateStyles, book.date1904, onRow);
  } finally {
    zip.close();
  }
}

async function readSheetRows(
  zip: ZipFile,
  entry: Entry,
  budget: Budget,
  shared: string[],
  dateStyles: Set<number>,
  date1904: boolean,
  onRow: (cells: XlsxRow, line: number) => void,
) {
  const { maxRows, maxColumns, maxCellChars } = budget.limits;
  let inSheetData = false;
  let line = 0;
  let row: XlsxRow = [];
  let rowHasCell = false;
  let valueRows = 0;
  let sinceYield = 0;
  let bytesSinceYield = 0;
  // the cell being read
  let col = -1;
  let type = 'n';
  let style = 0;
  let text = '';
  let collecting = false;
  let inInline = false;
  let phonetic = 0;
  let hasValue = false;

  const cellValue = (): XlsxValue | undefined => {
    if (!hasValue) return undefined;
    switch (type) {
      case 's': {
        if (text.trim() === '') return undefined;
        const s = shared[Number(text)];
        return s === undefined || s === '' ? undefined : s;
      }
      case 'inlineStr':
      case 'str':
        return text === '' ? undefined : text;
      case 'b':
        return text.trim() === '1' || text.trim() === 'true';
      case 'e':
        return undefined;
      case 'd': {
        const d = new Date(text);
        return Number.isNaN(d.getTime()) ? text : d;
      }
      default: {
        if (text.trim() === '') return undefined;
        const n = Number.parseFloat(text);
        if (Number.isNaN(n)) return text;
        return dateStyles.has(style) ? excelToDate(n, date1904) : n;
      }
    }
  };

  await parseEntry(
    zip,
    entry,
    budget,
    (p) => {
      p.on('opentag', (tag: SaxesTagPlain) => {
        const name = localName(tag.name);
        if (name === 'sheetData') inSheetData = true;
        if (!inSheetData) return;
        if (name === 'row') {
          const r = Number.parseInt(tag.attributes.r ?? '', 10);
          line = Number.isFinite(r) && r > line ? r : line + 1;
          row = [];
          rowHasCell = false;
          col = -1;
        } else if (name === 'c') {
          const ref = tag.attributes.r;
          const at = ref ? columnOf(ref) : -1;
          col = at >= 0 ? at : col + 1;
          type = tag.attributes.t ?? 'n';
          style = Number(tag.attributes.s ?? 0);
          text = '';
          hasValue = false;
          inInline = false;
          phonetic = 0;
        } else if (name === 'v') {
          collecting = true;
          hasValue = true;
        } else if (name === 'is') {
          inInline = true;
          hasValue = true;
        } else if (name === 'rPh') phonetic++;
        else if (name === 't' && inInline && !phonetic) collecting = true;
      });
      p.on('text', (t) => {
        if (!collecting) return;
        text += t;
        if (text.length > maxCellChars) throw cellTooLong(maxCellChars);
      });
      p.on('closetag', (tag) => {
        const name = localName(tag.name);
        if (name === 'sheetData') inSheetData = false;
        if (!inSheetData) return;
        if (name === 'v' || name === 't') collecting = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'c') {
          const value = cellValue();
          if (value === undefined) return;
          if (col >= maxColumns)
            throw refuse(`列数过多：超过 ${maxColumns} 列`, `Too many columns: more than ${maxColumns}`);
          row[col] = value;
          rowHasCell = true;
        } else if (name === 'row') {
          if (!rowHasCell) return;
          // the header row plus maxRows rows of data
          if (++valueRows > maxRows + 1)
            throw refuse(`行数过多：超过 ${maxRows} 行`, `Too many rows: more than ${maxRows}`);
          sinceYield++;
          onRow(row, line);
        }
      });
    },
    async (bytes) => {
      bytesSinceYield += bytes;
      if (sinceYield >= YIELD_EVERY_ROWS || bytesSinceYield >= YIELD_EVERY_BYTES) {
        sinceYield = 0;
        bytesSinceYield = 0;
        await nextTurn();
      }
    },
  );
}

/** A cell as the text a person typed: dates as YYYY-MM-DD (with the time when there is one). */
export function cellString(value: XlsxValue | undefined): string {
  if (value === undefined) return '';
  if (value instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    const date = `${value.getUTCFullYear()}-${p(value.getUTCMonth() + 1)}-${p(value.getUTCDate())}`;
    const time = `${p(value.getUTCHours())}:${p(value.getUTCMinutes())}:${p(value.getUTCSeconds())}`;
    return time === '00:00:00' ? date : `${date} ${time}`;
  }
  return String(value);
}
