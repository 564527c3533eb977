import { remark, text } from './fields';
import { areaResource, L } from './types';

/**
 * 附件管理 (spec §7 `dfem-resource/attach`: list, detail, remove, submit; the family's `blade_attach`): the
 * files a tenant keeps as attachments. A row names a stored file by the path an upload issued
 * (`/api/dfem-hope-manage/file/attach/<uuid>.pdf`, what records keep), never by a bucket's URL: its `link`
 * (that path, which answers the file from wherever it lives now) and `domain` (the public domain of the
 * storage config it was written to) are made when the row is read. `attach/upload` stores a file: checked by
 * content against the tenant's type and size limits, stored once per tenant and content (SHA-256: the same
 * file uploaded again is a new row naming the same object), and a row that a record still names cannot be
 * removed.
 */

/** What an attachment's content may be (`attach.types`, per tenant `attach.types.<tenantId>`): all by default. */
export const ATTACH_KINDS = ['pdf', 'docx', 'xlsx', 'pptx', 'png', 'jpg'] as const;
export type AttachKind = (typeof ATTACH_KINDS)[number];
/** Kinds answered with a thumbnail (`attach/thumb/<name>`). */
export const ATTACH_IMAGE_KINDS: readonly AttachKind[] = ['png', 'jpg'];

/** The system parameters of the limits, and their defaults (`<key>.<tenantId>` sets one tenant's). */
export const ATTACH_LIMITS = {
  params: { maxMb: 'attach.maxMb', types: 'attach.types' },
  defaults: { maxMb: 20, types: ATTACH_KINDS.join(',') },
} as const;

/** The longest side of a thumbnail, in pixels. */
export const ATTACH_THUMB_PX = 240;

/** Where the console's upload, thumbnails and files are answered. */
export const ATTACH_PATHS = {
  upload: '/api/dfem-resource/attach/upload',
  thumb: '/api/dfem-resource/attach/thumb/',
} as const;

const resourceArea = areaResource('dfem-resource', 'resource');

/**
 * 附件管理: one row per attachment. `originalName` and `remark` are what a person edits; `path` names the
 * stored file (an upload of this tenant's, or a file records already name); name, extension, size and
 * checksum are filled from the stored file by the server.
 */
export const attachResource = resourceArea(
  'attach',
  'blade_attach',
  'FolderOutlined',
  L('附件管理', 'Attachments'),
  'attach',
  'attach',
  [
    text('originalName', L('文件名称', 'File name'), 255, {
      required: true,
      search: 'like',
      example: 'report.pdf',
    }),
    {
      name: 'path',
      label: L('文件', 'File'),
      type: 'files',
      required: true,
      list: false,
      max: 255,
    },
    text('name', L('对象名', 'Object name'), 64, { readOnly: true, form: false, list: false }),
    text('extension', L('扩展名', 'Extension'), 8, { readOnly: true, form: false, search: 'equal' }),
    {
      name: 'attachSize',
      label: L('文件大小', 'Size'),
      type: 'int',
      readOnly: true,
      form: false,
      min: 0,
      max: 2_147_483_647,
      unit: L('字节', 'bytes'),
    },
    text('sha256', L('校验和(SHA-256)', 'Checksum (SHA-256)'), 64, {
      readOnly: true,
      form: false,
      list: false,
    }),
    remark(),
  ],
  // a stored file's rows (how many share it, whether a removal frees it) are read by path
  { listPath: 'list', indexes: [{ name: 'path', fields: ['path'] }] },
);
