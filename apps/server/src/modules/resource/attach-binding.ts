import { createHash, randomUUID } from 'node:crypto';
import {
  ATTACH_IMAGE_KINDS,
  ATTACH_KINDS,
  ATTACH_LIMITS,
  ATTACH_PATHS,
  type AttachKind,
  attachResource,
  type FieldType,
  OSS_LOCAL,
  ossResource,
  resourceByKey,
} from '@smart/contracts';
import { and, eq, getTableName, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { tableOf } from '../../platform/crud/model';
import { mountedByKey } from '../../platform/crud/refs';
import { insertRows, liveRows, transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { FieldInputError, isUniqueViolation, notFound, TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { attachmentKind } from '../../platform/storage';
import { tenantParams } from '../system/params';
import { storageRefused } from './oss';
import { upload } from './tables';
import { storageKeyOf, UPLOAD_KINDS } from './uploads';

/**
 * 附件管理 (`attach`, dfem-resource) on the engine: list, detail, submit and remove are the engine's; this
 * binding adds what an attachment needs beyond them —
 * - **upload** (`POST attach/upload`, multipart, button `attach_upload`): the file is checked by content
 *   (never its name) against the tenant's kinds (`attach.types`) and size (`attach.maxMb`, both system
 *   parameters, `<key>.<tenantId>` for one tenant), and within the upload quotas (uploads.ts). Its SHA-256
 *   decides whether it is stored: a content the tenant already stored (an `app_upload` row with that
 *   checksum) is not stored again, the new row names the same path (one object, one quota charge, several
 *   rows). The row is written through the write path, as a submit's.
 * - **download** (`GET attach/download?id=`, button `attach_download`): the file under its original name,
 *   from the disk, or a redirect to a link of its bucket made now.
 * - **The reference count.** A row whose file a record of another resource still names (an image, files,
 *   video or rich-text field of any mounted resource, the tenant's live rows) is not removed: 409 naming how
 *   many. Rows of this resource sharing the object do not hold each other: removing one leaves the object to
 *   the others; removing the last one hands the object to the upload sweep (its row is due at once), which
 *   removes it unless something names it by then.
 * - **Thumbnails** (`GET /api/dfem-resource/attach/thumb/<name>`, attach-routes.ts) of its images.
 * `link` (the path, which answers the file from wherever it lives now) and `domain` (the public domain of
 * the config it was written to) are made when the row is read, never stored.
 */

const ATTACH_PLACE = UPLOAD_KINDS.files;
/** the fields whose text names uploaded files */
const NAMING_KINDS: ReadonlySet<FieldType> = new Set(['image', 'files', 'video', 'richText']);
const MB = 1024 * 1024;

export const mountedAttach = () => mountedByKey.get(attachResource.key) as MountedResource;

/** The stored name (`<uuid>.pdf`) of a path an attachment upload issued; null for any other text. */
export function attachNameOf(path: string): string | null {
  const key = storageKeyOf(path);
  return key?.startsWith(`${ATTACH_PLACE.folder}/`) && path.startsWith(ATTACH_PLACE.served)
    ? key.slice(ATTACH_PLACE.folder.length + 1)
    : null;
}

/** A tenant's limits: the kinds its attachments may be and their largest size in bytes. */
export async function attachLimits(db: Db, tenantId: string) {
  const { params, defaults } = ATTACH_LIMITS;
  const p = await tenantParams(db, tenantId, {
    [params.maxMb]: String(defaults.maxMb),
    [params.types]: defaults.types,
  });
  const mb = Number(p[params.maxMb]);
  const maxMb = Number.isFinite(mb) && mb > 0 ? mb : defaults.maxMb;
  const types = p[params.types]
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t): t is AttachKind => (ATTACH_KINDS as readonly string[]).includes(t));
  return { maxMb, maxBytes: Math.floor(maxMb * MB), types: types.length ? types : [...ATTACH_KINDS] };
}

/** How many live records of the tenant (of any resource but this one) name a path. */
export async function recordsNaming(db: Db, tenantId: string, path: string): Promise<number> {
  let total = 0;
  for (const m of mountedByKey.values()) {
    // the product's own definitions only (a test's extra resource may outlive its table)
    if (m.def.key === attachResource.key || resourceByKey.get(m.def.key) !== m.def) continue;
    const cols = m.def.fields
      .filter((f) => NAMING_KINDS.has(f.type) && m.cols[f.name])
      .map((f) => m.cols[f.name]);
    if (!cols.length) continue;
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(m.table)
      .where(
        and(
          ...liveRows(m),
          ...(m.def.tenant ? [eq(m.cols.tenantId, tenantId)] : []),
          sql`(${sql.join(
            cols.map((c) => sql`strpos(${c}, ${path}) > 0`),
            sql` or `,
          )})`,
        ),
      );
    total += Number(row?.n ?? 0);
  }
  return total;
}

/** The original name as kept: no control characters or path, at most 255 characters (the extension kept). */
function cleanName(sent: string | undefined, kind: AttachKind): string {
  const base = (sent ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .split(/[\\/]/)
    .pop()
    ?.trim();
  const name = base || `file.${kind}`;
  if (name.length <= 255) return name;
  const ext = `.${kind}`;
  return name.slice(0, 255 - ext.length) + ext;
}

const MESSAGES = {
  none: { zh: '请选择文件', en: 'please choose a file' },
  tooBig: (mb: number) => ({ zh: `附件大小不能超过 ${mb}MB`, en: `An attachment must be at most ${mb} MB` }),
  badKind: (types: readonly string[]) => ({
    zh: `附件只能是以下类型(按文件内容识别):${types.join('、')}`,
    en: `An attachment may only be (recognised by its content): ${types.join(', ')}`,
  }),
  badPath: { zh: '文件须为本系统上传的附件', en: 'The file must be an attachment uploaded here' },
};

/**
 * Where a checked upload's bytes live: a path of the tenant's that holds the same content (its row's due
 * time moved on, so a sweep running now cannot take it), or a new object written through the tenant's
 * storage and written down with its checksum. Two uploads of one content at once: the second one's row
 * clashes on (tenant, sha256), its object is removed (keep) and the first one's path is used.
 */
async function storeOnce(
  req: FastifyRequest,
  ctx: RequestContext,
  db: Db,
  buf: Buffer,
  kind: AttachKind,
  graceMinutes: number,
): Promise<{ path: string; reused: boolean }> {
  const sha256 = createHash('sha256').update(buf).digest('hex');
  const graceMs = Math.round(graceMinutes * 60_000);
  const stored = async () => {
    const [row] = await db
      .update(upload)
      .set({ dueAt: sql`greatest(${upload.dueAt}, now() + ${graceMs} * interval '1 millisecond')` })
      .where(and(eq(upload.tenantId, ctx.tenantId), eq(upload.sha256, sha256)))
      .returning({ path: upload.path });
    return row?.path;
  };
  const found = await stored();
  if (found) return { path: found, reused: true };
  const name = `${randomUUID()}.${kind}`;
  const path = `${ATTACH_PLACE.served}${name}`;
  const target = await req.server.storageConfigs.forUpload(ctx.tenantId);
  await target.store.put(`${ATTACH_PLACE.folder}/${name}`, buf).catch((e) => {
    throw storageRefused(e);
  });
  try {
    await req.server.uploads.keep(ctx, path, buf.length, target.ossId, sha256);
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const other = await stored();
    if (!other) throw e;
    return { path: other, reused: true };
  }
  return { path, reused: false };
}

/** The row as answered, read back within the caller's constraint. */
async function answerRow(
  req: FastifyRequest,
  ctx: RequestContext,
  m: MountedResource,
  scope: SQL,
  id: string,
) {
  const [row] = await m.db
    .select(m.selection)
    .from(m.table)
    .where(and(scope, eq(m.cols.id, id)))
    .limit(1);
  if (!row) throw notFound();
  const [out] = await m.output(ctx, [row as Row], req.lang);
  return out;
}

const noQuery = z.object({}).strict();
const idQuery = z.object({ id: idString }).strict();

export function attachHooks(deps: { config: { UPLOAD_GRACE_MINUTES: number } }): ResourceHooks {
  const attachT = getTableName(tableOf(attachResource));
  const ossT = getTableName(tableOf(ossResource));
  const uploadT = getTableName(upload);
  // the public domain of the config the file was written to ('' for the local disk), read with the row
  // (constant text: the names are the tables', qualified since the outer query's columns may not be)
  const domain = sql<string>`${sql.raw(
    `coalesce((select case when o.category = '${OSS_LOCAL}' then '' else coalesce(nullif(o.transform_endpoint, ''), o.endpoint, '') end from "${uploadT}" u join "${ossT}" o on o.id = u.oss_id where u.path = "${attachT}"."path" limit 1), '')`,
  )}`;
  return {
    beside: { domain },
    toRow(row) {
      const path = typeof row.path === 'string' ? row.path : '';
      const name = attachNameOf(path);
      const ext = String(row.extension ?? '') as AttachKind;
      return {
        ...row,
        link: path || null,
        thumb: name && ATTACH_IMAGE_KINDS.includes(ext) ? `${ATTACH_PATHS.thumb}${name}` : null,
      };
    },
    /**
     * A row names one attachment path (an upload's, of this tenant when it has a row); the object's name,
     * extension, size and checksum are taken from the stored file, never from the body.
     */
    async beforeWrite(ctx, record) {
      if (!Object.hasOwn(record, 'path')) return;
      const path = String(record.path ?? '');
      const name = attachNameOf(path);
      if (!name || path.includes(',')) throw new FieldInputError('path', MESSAGES.badPath);
      const m = mountedAttach();
      const [row] = await m.db
        .select({ tenantId: upload.tenantId, size: upload.size, sha256: upload.sha256 })
        .from(upload)
        .where(eq(upload.path, path))
        .limit(1);
      if (row && row.tenantId !== ctx.tenantId) throw new FieldInputError('path', MESSAGES.badPath);
      record.name = `${ATTACH_PLACE.folder}/${name}`;
      record.extension = name.slice(name.lastIndexOf('.') + 1);
      record.attachSize = row ? Number(row.size) : null;
      record.sha256 = row?.sha256 ?? null;
    },
    /** a row whose file a record still names is not removed (409 naming how many) */
    async beforeRemove(ctx, ids, tx) {
      const m = mountedAttach();
      const rows = await tx
        .select({ path: m.cols.path, originalName: m.cols.originalName })
        .from(m.table)
        .where(inArray(m.cols.id, ids));
      const seen = new Set<string>();
      for (const r of rows) {
        const path = String(r.path);
        if (seen.has(path)) continue;
        seen.add(path);
        const n = await recordsNaming(tx, ctx.tenantId, path);
        if (n)
          throw new TextError(
            409,
            {
              zh: `附件「${r.originalName}」仍被 ${n} 条记录引用,不能删除`,
              en: `The attachment "${r.originalName}" is still used by ${n} record(s): it cannot be removed`,
            },
            { references: n },
          );
      }
    },
    /** an object no live row of the tenant names any more is due for the sweep at once */
    async afterDelete(ctx, ids, tx) {
      const m = mountedAttach();
      const paths = (
        await tx.selectDistinct({ path: m.cols.path }).from(m.table).where(inArray(m.cols.id, ids))
      ).map((r) => String(r.path));
      if (!paths.length) return;
      const held = new Set(
        (
          await tx
            .selectDistinct({ path: m.cols.path })
            .from(m.table)
            .where(and(eq(m.cols.tenantId, ctx.tenantId), inArray(m.cols.path, paths), ...liveRows(m)))
        ).map((r) => String(r.path)),
      );
      const freed = paths.filter((p) => !held.has(p));
      if (freed.length)
        await tx
          .update(upload)
          .set({ dueAt: sql`now()` })
          .where(and(eq(upload.tenantId, ctx.tenantId), inArray(upload.path, freed)));
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'upload',
        codeSuffix: '_upload',
        query: noQuery,
        async handler({ req, ctx, resource, scope }) {
          const uploads = req.server.uploads;
          const limits = await attachLimits(resource.db, ctx.tenantId);
          const room = await uploads.roomBefore(ctx);
          const limit = Math.min(limits.maxBytes, room.bytes);
          const tooBig = () =>
            limit < limits.maxBytes ? room.refusal() : new TextError(413, MESSAGES.tooBig(limits.maxMb));
          if (!req.isMultipart()) throw new FieldInputError('file', MESSAGES.none);
          const file = await req.file({ limits: { fileSize: limit + 1, files: 1 } }).catch(() => undefined);
          if (!file) throw new FieldInputError('file', MESSAGES.none);
          const buf = await file.toBuffer().catch(() => null);
          if (file.file.truncated || (buf && buf.length > limit)) throw tooBig();
          if (!buf?.length) throw new FieldInputError('file', MESSAGES.none);
          const kind = await attachmentKind(buf);
          if (!kind || !limits.types.includes(kind))
            throw new FieldInputError('file', MESSAGES.badKind(limits.types));
          const { path, reused } = await storeOnce(
            req,
            ctx,
            resource.db,
            buf,
            kind,
            deps.config.UPLOAD_GRACE_MINUTES,
          );
          const record: Record<string, unknown> = { originalName: cleanName(file.filename, kind), path };
          await resource.check(ctx, record, 'create');
          const [written] = await transaction(resource.db, (tx) =>
            insertRows(resource, ctx, tx, [record], { answer: true }),
          );
          return { ...(await answerRow(req, ctx, resource, scope, String(written.row.id))), reused };
        },
      }),
      endpoint({
        method: 'GET',
        path: 'download',
        codeSuffix: '_download',
        query: idQuery,
        async handler({ reply, resource, scope, query }) {
          const [row] = await resource.db
            .select({ path: resource.cols.path, originalName: resource.cols.originalName })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, query.id)))
            .limit(1);
          if (!row) throw notFound();
          const name = attachNameOf(String(row.path));
          if (!name) throw notFound();
          const original = String(row.originalName);
          const ascii = original.replace(/[^\x20-\x7e]|["\\]/g, '_');
          const disposition = `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(original)}`;
          const key = `${ATTACH_PLACE.folder}/${name}`;
          const where = await reply.server.storageConfigs.locate(String(row.path), key, {
            contentDisposition: disposition,
          });
          if (!('local' in where)) return reply.header('cache-control', 'no-store').redirect(where.url, 302);
          const storage = reply.server.deps.storage;
          const size = await storage.size(key);
          const stream = size === null ? null : storage.open(key);
          if (!stream) throw notFound();
          return reply
            .header('content-type', ATTACH_TYPES[name.slice(name.lastIndexOf('.') + 1) as AttachKind])
            .header('content-disposition', disposition)
            .header('content-length', String(size))
            .header('cache-control', 'private, no-store')
            .send(stream);
        },
      }),
    ],
  };
}

export const ATTACH_TYPES: Record<AttachKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
};
