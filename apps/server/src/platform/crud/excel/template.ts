import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../access/permissions';
import { requireCtx } from '../../auth/context';
import { loadExcel } from '../../excel';
import type { MountedResource } from '../binding';
import { describe, dictOptions, excelColumns, header, isNumber, loadDicts } from './columns';
import { fileName } from './names';

/** `<path>/excel/template`: the import's columns, empty, with drop-downs and a sheet explaining each column. */
export function mountTemplate(app: FastifyInstance, m: MountedResource, url: string) {
  const { def, db } = m;
  const code = def.permission;
  app.get(url, { config: { tokenInQuery: true } }, async (req, reply) => {
    requireCtx(req);
    await requirePermission(db, req, `${code}_import`);
    const cs = excelColumns(def);
    const dicts = await loadDicts(db, def, req.lang);
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Sheet1');
    sheet.columns = cs.map((c) => ({
      key: c.key,
      header: header(c, req.lang),
      width: c.field.type === 'textarea' ? 40 : 18,
      // text columns stay text: an 18-digit ID number must not become a rounded number
      style: isNumber(c.field) ? {} : { numFmt: '@' },
    }));
    sheet.getRow(1).font = { bold: true };
    cs.forEach((c, i) => {
      const options = c.field.dict
        ? dictOptions(dicts, c.field.dict)
        : c.field.type === 'switch'
          ? req.lang === 'en'
            ? ['Yes', 'No']
            : ['是', '否']
          : [];
      const list = options.join(',');
      if (options.length && list.length < 250) {
        const col = sheet.getColumn(i + 1).letter;
        for (let r = 2; r <= 1000; r++)
          sheet.getCell(`${col}${r}`).dataValidation = {
            type: 'list',
            allowBlank: true,
            formulae: [`"${list}"`],
          };
      }
    });
    const help = wb.addWorksheet(req.lang === 'en' ? 'How to fill' : '填写说明');
    help.columns = [
      { header: req.lang === 'en' ? 'Column' : '列', key: 'col', width: 22 },
      { header: req.lang === 'en' ? 'Rule' : '填写要求', key: 'rule', width: 90 },
    ];
    for (const c of cs) help.addRow({ col: header(c, req.lang), rule: describe(c, dicts, req.lang, def) });
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(fileName(def, req, { zh: '导入模板', en: '-template' }))}.xlsx`,
      )
      .header('cache-control', 'no-store')
      .send(buf);
  });
}
