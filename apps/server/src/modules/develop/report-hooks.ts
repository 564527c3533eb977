import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AreaDeps } from '../../platform/area';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint, rowInScope } from '../../platform/crud/endpoints';
import { XLSX_TYPE } from '../../platform/excel';
import { idString } from '../../platform/http/ids';
import type { Lang } from '../../platform/http/messages';
import { type BuiltReport, buildReport, checkReport, reportableFor, resourceChoice } from './report';
import { type ReportFont, reportPdf, reportXlsx } from './report-files';

/**
 * 报表管理 (`report`, dfem-report `report/rest/*`) on the engine: list, detail, submit and remove are the
 * engine's (the family's list and remove answer as every list and removal does); a written report's
 * resource and design are checked (`checkReport`: the caller's own resources, declared fields, the list's
 * whitelisted filters — 400 otherwise). Beyond them:
 * - `report/rest/resources` (the screen's code): the resources the caller may report on, with their fields;
 * - `report/rest/preview { id }` (button `report_preview`): the report's pages as the print and the files
 *   draw them;
 * - `report/rest/export-pdf?id=` and `export-excel?id=` (button `report_export`): the same pages as a PDF
 *   and as an Excel file.
 * The report row is found within the caller's constraint on reports (another tenant's: 404); its rows within
 * the caller's constraint on the resource read (tenant, data scope), and only by a caller holding that
 * resource's screen code (403 otherwise).
 */

const stamp = () => {
  const tz = process.env.TZ || 'Asia/Shanghai';
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date());
};

const fileName = (name: string, ext: string) =>
  `attachment; filename*=UTF-8''${encodeURIComponent(name.replace(/[\\/:*?"<>|]/g, '_'))}.${ext}`;

export function reportHooks(deps: AreaDeps): ResourceHooks {
  const font: ReportFont = { path: deps.config.REPORT_FONT, face: deps.config.REPORT_FONT_FACE };
  const ById = z.object({ id: idString }).strict();
  /** `path?id=`: the report drawn as a file by `render`, downloaded under the report's name */
  const exportEndpoint = (
    path: string,
    type: string,
    ext: string,
    render: (report: BuiltReport, lang: Lang) => Promise<Buffer>,
  ) =>
    endpoint({
      method: 'GET',
      path,
      codeSuffix: '_export',
      query: ById,
      async handler({ ctx, req, reply, resource, scope, query }) {
        const row = await rowInScope(resource, scope, query.id);
        const file = await render(await buildReport(ctx, req.lang, row), req.lang);
        (reply as FastifyReply)
          .header('content-type', type)
          .header('content-disposition', fileName(String(row.name), ext))
          .header('cache-control', 'no-store')
          .send(file);
        return reply;
      },
    });
  return {
    async beforeWrite(ctx, record, _mode, _id, original) {
      const checked = await checkReport(ctx, { ...original, ...record });
      // kept as checked: the columns in order, nothing else
      record.content = JSON.stringify(checked.design);
    },
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'resources',
        query: z.object({}).strict(),
        async handler({ ctx, req }) {
          return (await reportableFor(ctx, deps.db))
            .map((m) => resourceChoice(m, req.lang))
            .sort((a, b) => a.label.localeCompare(b.label, req.lang === 'en' ? 'en' : 'zh'));
        },
      }),
      endpoint({
        method: 'POST',
        path: 'preview',
        codeSuffix: '_preview',
        query: z.object({}).strict(),
        body: ById,
        async handler({ ctx, req, resource, scope, body }) {
          const row = await rowInScope(resource, scope, body.id);
          return { ...(await buildReport(ctx, req.lang, row)), printedAt: stamp() };
        },
      }),
      exportEndpoint('export-pdf', 'application/pdf', 'pdf', (report, lang) =>
        reportPdf(report, lang, font, stamp()),
      ),
      exportEndpoint('export-excel', XLSX_TYPE, 'xlsx', reportXlsx),
    ],
  };
}
