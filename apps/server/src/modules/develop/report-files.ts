import { existsSync } from 'node:fs';
import { loadExcel, safeCell, sheetName } from '../../platform/excel';
import { TextError } from '../../platform/http/errors';
import type { Lang } from '../../platform/http/messages';
import type { BuiltReport, ReportLine } from './report';

/**
 * A built report as files, paginated as its preview: every page `rowsPerPage` lines under the same header
 * (the report's name, then the columns' labels), A4 in the report's orientation.
 * - PDF (pdfkit): the pages drawn one by one, the lines of a page scaled to fit it (a fixed number of rows a
 *   page, whatever that number), the text in the configured CJK font (`REPORT_FONT`), subset and embedded;
 * - Excel (exceljs): the header row is the sheet's print titles (repeated on every printed page), a row
 *   break after every page's lines, A4 in the orientation, the report's name in the page header.
 */

export interface ReportFont {
  path: string;
  face: string;
}

/** A4 in PDF points */
const A4 = { w: 595.28, h: 841.89 };
const MARGIN = 36;
/** where the table starts below the page's top, and what the footer keeps free at the bottom */
const TOP = 78;
const BOTTOM = 40;

/** how wide a text prints, in half-em units: a CJK character is two, anything else one */
const widthOf = (s: string) => {
  let n = 0;
  for (const ch of s) n += /[\u2e80-\uffff]/.test(ch) ? 2 : 1;
  return n;
};

const text = (v: string | number | null) => (v === null ? '' : String(v));

/** Column widths in points: by the longest of the label and the cells (capped), scaled to the width. */
function widths(report: BuiltReport, width: number): number[] {
  const lines = report.pages.flat();
  const weights = report.columns.map((c, i) => {
    let w = widthOf(c.label);
    for (const l of lines.slice(0, 500)) if (l.kind === 'row') w = Math.max(w, widthOf(text(l.cells[i])));
    return Math.min(Math.max(w, 4), 40);
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (w / sum) * width);
}

export function pageNumber(lang: Lang, page: number, pages: number) {
  return lang === 'en' ? `Page ${page} of ${pages}` : `第 ${page} / ${pages} 页`;
}

/** The PDF of a report (the configured font must exist: 503 naming the setting otherwise). */
export async function reportPdf(
  report: BuiltReport,
  lang: Lang,
  font: ReportFont,
  at: string,
): Promise<Buffer> {
  if (!existsSync(font.path))
    throw new TextError(503, {
      zh: `报表字体不存在:${font.path}(请安装 fonts-noto-cjk 或设置 REPORT_FONT)`,
      en: `The reports' font is missing: ${font.path} (install fonts-noto-cjk or set REPORT_FONT)`,
    });
  // pdfkit (and its font engine) is loaded with the first PDF: most starts draw none
  const { default: PDFDocument } = await import('pdfkit');
  const landscape = report.orientation === 'landscape';
  const W = landscape ? A4.h : A4.w;
  const H = landscape ? A4.w : A4.h;
  const doc = new PDFDocument({
    size: 'A4',
    layout: report.orientation,
    // the layout is ours: no margin for pdfkit to break pages at
    margin: 0,
    autoFirstPage: false,
    info: { Title: report.title, Subject: report.resource, Creator: '智慧管理系统' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const collection = /\.(ttc|otc)$/i.test(font.path);
  try {
    doc.registerFont('report', font.path, collection ? font.face : undefined);
  } catch (e) {
    throw new TextError(503, {
      zh: `报表字体无法读取:${font.path} ${font.face}(REPORT_FONT、REPORT_FONT_FACE)`,
      en: `The reports' font cannot be read: ${font.path} ${font.face} (REPORT_FONT, REPORT_FONT_FACE): ${(e as Error).message}`,
    });
  }
  const inner = W - 2 * MARGIN;
  const cols = widths(report, inner);
  // header, the page's lines and (on the last page) the total: a fixed number of lines in the height
  const rowH = Math.min(18, (H - TOP - BOTTOM) / (report.rowsPerPage + 2));
  const size = Math.max(3, Math.min(9, rowH * 0.58));
  const pages = report.pages.length;

  const drawLine = (cells: (string | number | null)[], y: number, fill?: string) => {
    if (fill) doc.rect(MARGIN, y, inner, rowH).fill(fill);
    doc.fillColor('#000').fontSize(size);
    let x = MARGIN;
    cells.forEach((v, i) => {
      const number = typeof v === 'number' || report.columns[i]?.number;
      doc.text(text(v), x + 2, y + (rowH - size) / 2 - size * 0.1, {
        width: cols[i] - 4,
        height: rowH,
        ellipsis: true,
        align: number && i > 0 ? 'right' : 'left',
      });
      x += cols[i];
    });
    doc
      .moveTo(MARGIN, y + rowH)
      .lineTo(MARGIN + inner, y + rowH)
      .lineWidth(0.3)
      .strokeColor('#999')
      .stroke();
  };
  const lineFill = (l: ReportLine) =>
    l.kind === 'row' ? undefined : l.kind === 'group' ? '#f2f2f2' : '#e6e6e6';

  doc.font('report');
  report.pages.forEach((lines, p) => {
    doc.addPage({ size: 'A4', layout: report.orientation, margin: 0 });
    // the header of every page: the report's name, what it reads, and the columns' labels
    doc.fillColor('#000').fontSize(14).text(report.title, MARGIN, MARGIN, { width: inner, lineBreak: false });
    doc
      .fontSize(8)
      .fillColor('#555')
      .text(`${report.resource} · ${at}`, MARGIN, MARGIN + 20, { width: inner, lineBreak: false });
    let y = TOP - rowH;
    drawLine(
      report.columns.map((c) => c.label),
      y,
      '#d9e2f3',
    );
    for (const l of lines) {
      y += rowH;
      drawLine(l.cells, y, lineFill(l));
    }
    if (p === pages - 1 && report.total) drawLine(report.total.cells, y + rowH, lineFill(report.total));
    doc
      .fontSize(8)
      .fillColor('#555')
      .text(pageNumber(lang, p + 1, pages), MARGIN, H - BOTTOM + 12, {
        width: inner,
        align: 'center',
        lineBreak: false,
      });
  });
  doc.end();
  return done;
}

/** The Excel file of a report: the same pages, as row breaks under repeated print titles. */
export async function reportXlsx(report: BuiltReport, lang: Lang): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName(report.title), {
    views: [{ state: 'frozen', ySplit: 1 }],
    pageSetup: {
      paperSize: 9, // A4
      orientation: report.orientation,
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: '1:1',
      margins: { left: 0.5, right: 0.5, top: 0.75, bottom: 0.75, header: 0.3, footer: 0.3 },
    },
    headerFooter: {
      oddHeader: `&C${report.title.replace(/&/g, '&&')}`,
      oddFooter: lang === 'en' ? '&CPage &P of &N' : '&C第 &P / &N 页',
    },
  });
  const cols = widths(report, report.columns.length * 16);
  ws.columns = report.columns.map((c, i) => ({ key: c.key, width: Math.max(8, Math.round(cols[i])) }));
  const header = ws.addRow(report.columns.map((c) => c.label));
  header.font = { bold: true };
  let at = 1;
  report.pages.forEach((lines, p) => {
    for (const l of lines) {
      const row = ws.addRow(l.cells.map(safeCell));
      at++;
      if (l.kind !== 'row') row.font = { bold: true };
    }
    // the page ends after its lines: the next page starts under the repeated header
    if (p < report.pages.length - 1) ws.getRow(at).addPageBreak();
  });
  if (report.total) ws.addRow(report.total.cells.map(safeCell)).font = { bold: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}
