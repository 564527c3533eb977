import { excelPath } from '@smart/contracts';
import type { FastifyInstance } from 'fastify';
import type { MountedResource } from '../binding';
import { mountExport } from './export';
import { mountImport } from './import';
import { mountTemplate } from './template';

/**
 * Excel for any resource that declares `excel` (spec §7: `<resource>/excel/import|export|template`):
 * - export (and a public notice, masked, where declared) writes what the list's filters select, streamed in id batches (never all rows in memory), with
 *   dictionary labels, switch words and the names of referenced rows, every text cell safe from formulas;
 * - template is the same columns, empty, with a sheet explaining each column;
 * - import checks every row with the form's rules (and the definition's uniqueness); one bad row imports
 *   nothing and the answer lists every bad row. A row whose key field (excel.key) matches a live row updates
 *   it, so importing the same file twice changes nothing the second time. Progress is readable while it runs.
 */

export function mountExcelRoutes(app: FastifyInstance, m: MountedResource) {
  const excel = m.def.excel!;
  const path = (which: Parameters<typeof excelPath>[1]) => excelPath(m.def, which);
  if (excel.export !== false) mountExport(app, m, path('export'));
  if (excel.notice) mountExport(app, m, path('notice'), true);
  if (excel.import) {
    mountTemplate(app, m, path('template'));
    mountImport(app, m, { import: path('import'), progress: path('progress') });
  }
}

export { excelColumns } from './columns';
