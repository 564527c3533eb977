/**
 * A report's preview: the pages the server cut (`report/rest/preview`), each an A4 sheet in the report's
 * orientation under the same header (the report's name, what it reads, the columns' labels) with its page
 * number, the total line on the last; the chart of the groups above them on screen. 打印 prints exactly these
 * sheets — the same pages rendered once more at the body's top level (`.report-print`, shown only in print)
 * with `@page` set to A4 in the orientation — and the PDF and Excel buttons download the same pages drawn
 * by the server.
 */
import { reportResource } from '@smart/contracts/develop';
import { Alert, Button, Modal, Space } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { barOption, pieOption } from '../../platform/charts/ChartCard';
import { type ChartOption, EChart } from '../../platform/charts/EChart';
import type { Row } from '../../platform/crud/CrudPage';
import { downloadFile } from '../../platform/crud/transfer';
import { postData } from '../../platform/http/client';
import { can } from '../../platform/session/session';

const BASE = `/api/${reportResource.service}/${reportResource.path}`;
const EXPORT_CODE = `${reportResource.permission}_export`;

interface Line {
  kind: 'row' | 'group' | 'total';
  cells: (string | number | null)[];
}
export interface BuiltReport {
  title: string;
  resource: string;
  columns: { key: string; label: string; number: boolean }[];
  rowsPerPage: number;
  orientation: 'portrait' | 'landscape';
  pages: Line[][];
  total: Line | null;
  count: number;
  truncated: boolean;
  chart: { type: string; series: string; categories: string[]; values: number[] } | null;
  printedAt: string;
}

/** A4 in mm, the sheet's margin, and what the title and the footer take */
const SHEET = { w: 210, h: 297, margin: 12, head: 18, foot: 8 };

function chartOption(c: NonNullable<BuiltReport['chart']>): ChartOption {
  const items = c.categories.map((name, i) => ({ name, value: c.values[i] ?? 0 }));
  if (c.type === 'pie') return pieOption(items);
  const bar = barOption(items, c.series) as { series: Record<string, unknown>[] };
  return c.type === 'line' ? { ...bar, series: bar.series.map((s) => ({ ...s, type: 'line' })) } : bar;
}

/** The report's sheets: the same markup on screen and in print. */
function Sheets({ report }: { report: BuiltReport }) {
  const { t } = useTranslation();
  const landscape = report.orientation === 'landscape';
  const w = landscape ? SHEET.h : SHEET.w;
  // a hair under the paper: a sheet never spills onto a next printed page
  const h = (landscape ? SHEET.w : SHEET.h) - 1;
  const body = h - 2 * SHEET.margin - SHEET.head - SHEET.foot;
  // header, the page's lines and the total: the same fixed number of lines on every sheet
  const rowMm = Math.min(7, body / (report.rowsPerPage + 2));
  const fontPt = Math.max(4, Math.min(10, rowMm * 2.83 * 0.6));
  const pages = report.pages.length;
  const line = (l: Line, i: number, total = false): ReactNode => (
    <tr key={total ? 'total' : i} className={`report-line report-${l.kind}`}>
      {l.cells.map((c, j) => (
        <td
          // biome-ignore lint/suspicious/noArrayIndexKey: a line's cells are its columns, in order
          key={j}
          style={{ textAlign: report.columns[j]?.number && j > 0 ? 'right' : 'left' }}
        >
          {c ?? ''}
        </td>
      ))}
    </tr>
  );
  return (
    <>
      {report.pages.map((lines, p) => (
        <section
          // biome-ignore lint/suspicious/noArrayIndexKey: a page is its place
          key={p}
          className="report-page"
          data-page={p + 1}
          style={{ width: `${w}mm`, height: `${h}mm`, padding: `${SHEET.margin}mm` }}
        >
          <header className="report-head" style={{ height: `${SHEET.head}mm` }}>
            <h2>{report.title}</h2>
            <div className="report-sub">
              {report.resource} · {report.printedAt}
            </div>
          </header>
          <table style={{ fontSize: `${fontPt}pt` }}>
            <thead>
              <tr style={{ height: `${rowMm}mm` }}>
                {report.columns.map((c) => (
                  <th key={c.key}>{c.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lines.map((l, i) => line(l, i))}
              {p === pages - 1 && report.total && line(report.total, 0, true)}
            </tbody>
          </table>
          <footer className="report-foot">{t('develop.pageOf', { page: p + 1, pages })}</footer>
          <style>{`.report-page tr { height: ${rowMm}mm; }`}</style>
        </section>
      ))}
    </>
  );
}

const SCREEN_CSS = `
.report-page { box-sizing: border-box; background: #fff; color: #000; margin: 0 auto 16px;
  box-shadow: 0 1px 6px rgba(0,0,0,.25); overflow: hidden; display: flex; flex-direction: column;
  font-family: "Noto Sans CJK SC", "Source Han Sans SC", sans-serif; }
.report-head h2 { font-size: 14pt; margin: 0; color: #000; }
.report-sub { font-size: 8pt; color: #555; }
.report-page table { width: 100%; border-collapse: collapse; table-layout: auto; }
.report-page th { background: #d9e2f3; text-align: left; font-weight: 600; }
.report-page th, .report-page td { border-bottom: 0.3pt solid #999; padding: 0 1mm; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; max-width: 60mm; }
.report-group td { background: #f2f2f2; font-weight: 600; }
.report-total td { background: #e6e6e6; font-weight: 600; }
.report-foot { margin-top: auto; text-align: center; font-size: 8pt; color: #555; }
.report-print { display: none; }
`;

const printCss = (orientation: string) => `
@page { size: A4 ${orientation}; margin: 0; }
@media print {
  body > *:not(.report-print) { display: none !important; }
  .report-print { display: block !important; }
  .report-print .report-page { margin: 0; box-shadow: none; break-after: page; page-break-after: always; }
  .report-print .report-page:last-child { break-after: auto; page-break-after: auto; }
  .report-page th, .report-group td, .report-total td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}`;

export function ReportPreview({ row, onClose }: { row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const [report, setReport] = useState<BuiltReport | null>(null);
  useEffect(() => {
    let live = true;
    postData<BuiltReport>(`${BASE}/preview`, { id: row.id })
      .then((r) => live && setReport(r))
      .catch(() => live && onClose()); // the http client has shown what went wrong
    return () => {
      live = false;
    };
  }, [row.id, onClose]);
  const name = String(row.name ?? '');
  const download = (path: string, ext: string) =>
    downloadFile(`${BASE}/${path}`, { id: row.id }, `${name}.${ext}`).catch(() => undefined);
  return (
    <Modal
      open
      width={Math.min(1240, window.innerWidth - 32)}
      title={t('develop.previewReport', { name })}
      onCancel={onClose}
      loading={!report}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.close')}</Button>
          {can(EXPORT_CODE) && (
            <Button onClick={() => download('export-excel', 'xlsx')}>{t('develop.exportExcel')}</Button>
          )}
          {can(EXPORT_CODE) && (
            <Button onClick={() => download('export-pdf', 'pdf')}>{t('develop.exportPdf')}</Button>
          )}
          <Button type="primary" disabled={!report} onClick={() => window.print()}>
            {t('develop.print')}
          </Button>
        </Space>
      }
    >
      <style>{SCREEN_CSS}</style>
      {report && (
        <div className="report-preview">
          <Alert
            type={report.truncated ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            message={
              report.truncated
                ? t('develop.truncated', { count: report.count })
                : t('develop.rowsRead', {
                    count: report.count,
                    per: report.rowsPerPage,
                    pages: report.pages.length,
                  })
            }
          />
          {report.chart && (
            <div className="report-chart" style={{ marginBottom: 12 }}>
              <EChart
                option={chartOption(report.chart)}
                label={`${report.chart.series}: ${report.chart.categories
                  .map((c, i) => `${c} ${report.chart?.values[i]}`)
                  .join(', ')}`}
                height={260}
              />
            </div>
          )}
          <div
            className="report-screen"
            style={{ overflow: 'auto', maxHeight: '65vh', background: '#eee', padding: 16 }}
          >
            <Sheets report={report} />
          </div>
          {createPortal(
            <div className="report-print" aria-hidden>
              <style>{printCss(report.orientation)}</style>
              <Sheets report={report} />
            </div>,
            document.body,
          )}
        </div>
      )}
    </Modal>
  );
}
