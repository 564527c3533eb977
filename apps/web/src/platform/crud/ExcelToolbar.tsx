/**
 * Excel buttons of any resource that declares `excel` (the server's `<path>/excel/import|export|template`):
 * 导出 writes what the list's current filters select (公示导出, where declared, the same rows as a public
 * notice: ID numbers, phones and personal details masked by the server); 导入 uploads a workbook, shows the upload and the
 * server's checking and writing progress, and lists every bad row when nothing was imported.
 */
import {
  DownloadOutlined,
  ExportOutlined,
  FileProtectOutlined,
  ImportOutlined,
  InboxOutlined,
} from '@ant-design/icons';
import { excelPath, type ResourceDef } from '@smart/contracts/core';
import { Alert, App, Button, Modal, Progress, Space, Switch, Table, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError } from '../http/client';
import { addBundle, currentLanguage } from '../i18n';
import { can } from '../session/session';

/** an Excel route of a resource, under its service */
const excelUrl = (def: ResourceDef, which: Parameters<typeof excelPath>[1]) =>
  `/api/${def.service}${excelPath(def, which)}`;

import { downloadFile, uploadWithProgress } from './transfer';
import type { CrudContext } from './types';

const zh = {
  import: '导入',
  export: '导出',
  notice: '公示导出',
  template: '下载模板',
  upload: '开始导入',
  dropHint: '点击或拖拽 .xlsx 文件到此处',
  importHint: '任一行有误则不导入任何数据;身份证号等唯一值已存在的行将被更新',
  onlyXlsx: '只能导入 .xlsx 文件',
  chooseFile: '请选择要导入的文件',
  imported: '导入完成:新增 {created} 条,更新 {updated} 条',
  errors: '共 {rows} 行数据有误({count} 处错误),未导入任何数据',
  row: '行号',
  field: '列',
  message: '原因',
  phase_upload: '上传中',
  phase_read: '读取文件',
  phase_check: '校验数据',
  phase_write: '写入数据',
  phase_done: '完成',
  exporting: '正在导出…',
  cover: '更新已存在的数据(按{key}识别)',
  coverHint: '任一行有误则不导入任何数据;{key}已存在的行不更新,报为已存在,除非勾选上面的开关',
};
const en: typeof zh = {
  import: 'Import',
  export: 'Export',
  notice: 'Export for public notice',
  template: 'Template',
  upload: 'Import',
  dropHint: 'Click or drop an .xlsx file here',
  importHint: 'One bad row imports nothing; rows whose unique value (ID number…) exists update that row',
  onlyXlsx: 'Only .xlsx files can be imported',
  chooseFile: 'Please choose a file to import',
  imported: 'Imported: {created} added, {updated} updated',
  errors:
    '{rows, plural(one: row has; other: rows have)} errors ({count, plural(one: problem; other: problems)}); nothing was imported',
  row: 'Row',
  field: 'Column',
  message: 'Reason',
  phase_upload: 'Uploading',
  phase_read: 'Reading the file',
  phase_check: 'Checking rows',
  phase_write: 'Writing rows',
  phase_done: 'Done',
  exporting: 'Exporting…',
  cover: 'Update existing rows (matched by {key})',
  coverHint:
    'One bad row imports nothing; a row whose {key} exists is reported as existing unless the switch above is on',
};
declare module '../i18n' {
  interface ChunkBundles {
    excel: typeof zh;
  }
}
addBundle('excel', zh, en);

interface RowError {
  row: number;
  field: string;
  message: string;
}
type Phase = 'upload' | 'read' | 'check' | 'write' | 'done';
interface ServerProgress {
  phase: Phase;
  done: number;
  total: number;
}

export function ExcelToolbar({ def, ctx }: { def: ResourceDef; ctx: CrudContext }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [exporting, setExporting] = useState<'export' | 'notice' | null>(null);
  const excel = def.excel;
  if (!excel) return null;
  /** what the list's filters select: the export, or the public notice with personal details masked */
  const download = async (which: 'export' | 'notice', file: string) => {
    setExporting(which);
    const hide = message.loading(t('excel.exporting'), 0);
    try {
      await downloadFile(excelUrl(def, which), ctx.filters, file);
    } catch (e) {
      console.error(e);
    } finally {
      hide();
      setExporting(null);
    }
  };
  const name = excel.fileName[currentLanguage()];
  const mayImport = excel.import && can(`${def.permission}_import`);
  const mayExport = excel.export !== false && can(`${def.permission}_export`);
  // a Space of their own: inside the toolbar's Space this component is one item, its buttons would touch
  return (
    <>
      <Space wrap>
        {mayImport && (
          <Button icon={<ImportOutlined />} onClick={() => setOpen(true)}>
            {t('excel.import')}
          </Button>
        )}
        {mayExport && (
          <Button
            icon={<ExportOutlined />}
            loading={exporting === 'export'}
            onClick={() => download('export', `${name}.xlsx`)}
          >
            {t('excel.export')}
          </Button>
        )}
        {mayExport && excel.notice && (
          <Button
            icon={<FileProtectOutlined />}
            loading={exporting === 'notice'}
            onClick={() => download('notice', `${excel.notice![currentLanguage()]}.xlsx`)}
          >
            {t('excel.notice')}
          </Button>
        )}
      </Space>
      {open && (
        <ImportDialog
          def={def}
          onClose={() => setOpen(false)}
          onDone={async () => {
            setOpen(false);
            await ctx.refresh();
          }}
        />
      )}
    </>
  );
}

function ImportDialog({
  def,
  onClose,
  onDone,
}: {
  def: ResourceDef;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<ServerProgress | null>(null);
  const [errors, setErrors] = useState<RowError[]>([]);
  const [problem, setProblem] = useState('');
  const polling = useRef<ReturnType<typeof setInterval> | null>(null);
  const excel = def.excel!;
  const name = excel.fileName[lang];
  // a definition may ask the person to say that existing rows are to be updated (users: isCovered)
  const [covered, setCovered] = useState(false);
  const keyLabel = [excel.key ?? []]
    .flat()
    .map((k) => def.fields.find((f) => f.name === k)?.label[lang] ?? k)
    .join(' + ');

  const stopPolling = () => {
    if (polling.current) clearInterval(polling.current);
    polling.current = null;
  };
  useEffect(
    () => () => {
      if (polling.current) clearInterval(polling.current);
    },
    [],
  );

  const columnLabel = (field: string) => def.fields.find((f) => f.name === field)?.label[lang] ?? field;

  const upload = async () => {
    if (!file) {
      setProblem(t('excel.chooseFile'));
      return;
    }
    const form = new FormData();
    form.append('file', file);
    setErrors([]);
    setProblem('');
    setProgress({ phase: 'upload', done: 0, total: 100 });
    // crypto.randomUUID needs a secure context; a console on a LAN address over http has none
    const key = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    let uploaded = false;
    // once the file is up, the server tells how far its checking and writing have come
    polling.current = setInterval(async () => {
      if (!uploaded) return;
      try {
        const p = await getData<ServerProgress | null>(excelUrl(def, 'progress'), { key }, { silent: true });
        if (p && polling.current) setProgress(p);
      } catch {
        /* the import's own answer reports failures */
      }
    }, 400);
    try {
      const result = await uploadWithProgress<{ created: number; updated: number }>(
        excelUrl(def, 'import'),
        form,
        { progressKey: key, ...(excel.cover ? { [excel.cover]: covered ? 1 : 0 } : {}) },
        (percent) => {
          if (percent >= 100) uploaded = true;
          setProgress((p) =>
            p && p.phase !== 'upload' ? p : { phase: 'upload', done: percent, total: 100 },
          );
        },
      );
      stopPolling();
      setProgress({ phase: 'done', done: 1, total: 1 });
      message.success(t('excel.imported', result));
      if (result.created && excel.importedNote)
        message.info({ content: excel.importedNote[lang], duration: 10 });
      onDone();
    } catch (e) {
      stopPolling();
      console.error(e);
      const body = e instanceof HttpError ? (e.body as { data?: { errors?: RowError[] } } | null) : null;
      if (body?.data?.errors?.length) setErrors(body.data.errors);
      else setProblem(e instanceof Error ? e.message : String(e));
      setProgress(null);
    }
  };

  const percent = progress
    ? progress.phase === 'done'
      ? 100
      : progress.total
        ? Math.round((progress.done / progress.total) * 100)
        : 0
    : 0;
  const busy = !!progress && progress.phase !== 'done';
  // a row with several bad cells is one bad row: the rows are counted, the table lists every error
  const summary = t('excel.errors', { rows: new Set(errors.map((e) => e.row)).size, count: errors.length });
  return (
    <Modal
      open
      title={`${t('excel.import')} · ${def.label[lang]}`}
      width={760}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('excel.upload')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy }}
      onOk={upload}
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <Upload.Dragger
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          maxCount={1}
          multiple={false}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          beforeUpload={(f) => {
            if (!/\.xlsx$/i.test(f.name)) {
              setProblem(t('excel.onlyXlsx'));
              return Upload.LIST_IGNORE;
            }
            setFile(f);
            setProblem('');
            setErrors([]);
            setProgress(null);
            return false;
          }}
          onRemove={() => setFile(null)}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('excel.dropHint')}</p>
          <p className="ant-upload-hint">
            {excel.cover ? t('excel.coverHint', { key: keyLabel }) : t('excel.importHint')}
          </p>
        </Upload.Dragger>
        <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
          {excel.cover && (
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
              <Switch id={`${def.key}-import-cover`} checked={covered} onChange={setCovered} />
              <label htmlFor={`${def.key}-import-cover`}>{t('excel.cover', { key: keyLabel })}</label>
            </span>
          )}
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              downloadFile(
                excelUrl(def, 'template'),
                undefined,
                `${name}${lang === 'en' ? '-template' : '导入模板'}.xlsx`,
              ).catch((e) => console.error(e))
            }
          >
            {t('excel.template')}
          </Button>
        </div>
        {progress && (
          <div>
            <div aria-live="polite">
              {t(`excel.phase_${progress.phase}`)}
              {progress.phase === 'check' || progress.phase === 'write'
                ? ` ${progress.done} / ${progress.total}`
                : ''}
            </div>
            <Progress percent={percent} aria-label={t(`excel.phase_${progress.phase}`)} />
          </div>
        )}
        {problem && <Alert type="error" showIcon title={problem} />}
        {errors.length > 0 && (
          <>
            <Alert type="error" showIcon title={summary} />
            <Table<RowError>
              size="small"
              aria-label={summary}
              rowKey={(r) => `${r.row}-${r.field}-${r.message}`}
              dataSource={errors}
              pagination={errors.length > 10 ? { pageSize: 10 } : false}
              columns={[
                { key: 'row', dataIndex: 'row', title: t('excel.row'), width: 80 },
                {
                  key: 'field',
                  dataIndex: 'field',
                  title: t('excel.field'),
                  width: 140,
                  render: (v: string) => columnLabel(v),
                },
                { key: 'message', dataIndex: 'message', title: t('excel.message') },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
