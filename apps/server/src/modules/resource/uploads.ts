import type { FieldType } from '@smart/contracts';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { requireAnyPermission } from '../../platform/access/permissions';
import type { RequestContext } from '../../platform/auth/context';
import type { Config } from '../../platform/config';
import type { MountedResource } from '../../platform/crud/binding';
import { liveRows } from '../../platform/crud/write';
import { type Db, schema } from '../../platform/db';
import { ApiError, forbidden, invalidField } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import type { FileStorage } from '../../platform/storage';
import { addMissingParams } from '../../seed/insert';
import { paramNumber } from '../system/params';
import type { StorageConfigs } from './oss';
import { upload } from './tables';

/**
 * What an upload may be, how much each may keep, and the files nobody keeps:
 * - **Purpose.** A record's file is uploaded for a field (`?resource=careVideo&field=videoFile`): the caller
 *   must hold that resource's add or edit code, and the field must be of the route's kind (an image, files,
 *   a video). An avatar is the caller's own and needs no code.
 * - **Quota.** Every stored file is written down (`app_upload`: who, tenant, path, size, when); a user may
 *   keep `upload.quota.user` MB and a tenant `upload.quota.tenant` MB (`upload.quota.tenant.<tenantId>` for
 *   one tenant), system parameters. An upload that would pass either is a 413, and nothing of it is kept.
 * - **The sweep.** A file no record names once its grace period (`UPLOAD_GRACE_MINUTES`) is over is removed
 *   with its row, by every server's periodic sweep (`UPLOAD_SWEEP_INTERVAL_MS`). Which records name files is
 *   read off the definitions: every image, files, video and rich-text field of every mounted resource (their
 *   live rows), and the users' avatars. A file that is named is looked at again once per grace period (a
 *   record edited or removed since may have let it go).
 */

/** The kinds a record's upload is for: the field kind it must be, its folder in storage, its served path. */
export const UPLOAD_KINDS = {
  image: { folder: 'village', served: '/api/dfem-hope-manage/file/image/' },
  files: { folder: 'attach', served: '/api/dfem-hope-manage/file/attach/' },
  video: { folder: 'video', served: '/api/dfem-hope-manage/file/video/' },
} as const satisfies Partial<Record<FieldType, { folder: string; served: string }>>;
export type UploadKind = keyof typeof UPLOAD_KINDS;

/** Where avatars live (the user's own, `/api/dfem-resource/file/avatar/<name>`). */
export const AVATAR_PLACE = { folder: 'avatar', served: '/api/dfem-resource/file/avatar/' } as const;

const PLACES = [...Object.values(UPLOAD_KINDS), AVATAR_PLACE];
/** the server's names for stored files: a random UUID and the extension of the content's kind */
const STORED_NAME = /^[0-9a-f-]{36}\.[a-z0-9]{2,5}$/;

/** The storage key of a path an upload answered; null for any other text. */
export function storageKeyOf(path: string): string | null {
  const place = PLACES.find((p) => path.startsWith(p.served));
  const name = place && path.slice(place.served.length);
  return place && name && STORED_NAME.test(name) ? `${place.folder}/${name}` : null;
}

/** The fields whose values name uploaded files (their text holds the paths). */
const NAMING_KINDS: ReadonlySet<FieldType> = new Set(['image', 'files', 'video', 'richText']);

/** The parameters of the quotas, in MB, and their defaults. */
export const UPLOAD_QUOTA = {
  params: { user: 'upload.quota.user', tenant: 'upload.quota.tenant' },
  defaults: { user: 1024, tenant: 10_240 },
} as const;

const MB = 1024 * 1024;
/** rows one transaction of the sweep looks at; a run looks at every row due when it started, batch by batch */
const SWEEP_BATCH = 200;
const SWEEP_MAX_BATCHES = 500;

/** How many bytes a caller may still store, and the 413 to answer when an upload passes it. */
export interface Room {
  bytes: number;
  /** the 413 of the quota that leaves the least room */
  refusal: () => ApiError;
}

interface NamingColumn {
  table: PgTable;
  column: PgColumn;
  live: SQL[];
}

/** The SQLSTATE of a database error, on it or on what it wraps (Drizzle wraps the driver's). */
function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
}

const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

export class Uploads {
  /** the columns whose text may name an uploaded file, and the tables they are in */
  private readonly naming: NamingColumn[];
  private readonly tables: PgTable[];

  constructor(
    private readonly deps: { db: Db; storage: FileStorage; config: Config; configs: StorageConfigs },
    private readonly resources: ReadonlyMap<string, MountedResource>,
  ) {
    this.naming = [
      ...[...resources.values()].flatMap((m) =>
        m.def.fields
          .filter((f) => NAMING_KINDS.has(f.type) && m.cols[f.name])
          .map((f) => ({ table: m.table, column: m.cols[f.name], live: liveRows(m) })),
      ),
      {
        table: schema.user,
        column: schema.user.avatar,
        live: [notDeleted(schema.user.isDeleted)],
      },
    ];
    this.tables = [...new Set(this.naming.map((n) => n.table))];
  }

  /**
   * Refuses (403) an upload for a field unless the caller may add or edit rows of its resource and the field
   * is of `kind`; 400 when the request does not say what it is for.
   */
  async requirePurpose(req: FastifyRequest, kind: UploadKind): Promise<void> {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const key = typeof q.resource === 'string' ? q.resource : '';
    const name = typeof q.field === 'string' ? q.field : '';
    if (!key) throw invalidField('resource');
    if (!name) throw invalidField('field');
    const m = this.resources.get(key);
    const field = m?.def.fields.find((f) => f.name === name);
    if (!m || !field || field.type !== kind || m.def.readOnly) throw forbidden();
    await requireAnyPermission(this.deps.db, req, [`${m.def.permission}_add`, `${m.def.permission}_edit`]);
  }

  /** The caller's room under both quotas (`via`: a transaction's handle). */
  async room(ctx: RequestContext, via: Db = this.deps.db): Promise<Room> {
    const { params, defaults } = UPLOAD_QUOTA;
    const userMb = await paramNumber(via, params.user, defaults.user);
    const tenantMb = await paramNumber(
      via,
      `${params.tenant}.${ctx.tenantId}`,
      await paramNumber(via, params.tenant, defaults.tenant),
    );
    const [used] = await via
      .select({
        user: sql<string>`coalesce(sum(${upload.size}) filter (where ${upload.userId} = ${ctx.userId}), 0)`,
        tenant: sql<string>`coalesce(sum(${upload.size}), 0)`,
      })
      .from(upload)
      .where(eq(upload.tenantId, ctx.tenantId));
    const userRoom = Math.floor(userMb * MB) - Number(used.user);
    const tenantRoom = Math.floor(tenantMb * MB) - Number(used.tenant);
    return userRoom <= tenantRoom
      ? { bytes: Math.max(0, userRoom), refusal: () => new ApiError(413, 'uploadQuotaUser', { mb: userMb }) }
      : {
          bytes: Math.max(0, tenantRoom),
          refusal: () => new ApiError(413, 'uploadQuotaTenant', { mb: tenantMb }),
        };
  }

  /** The room before anything is read: a 413 at once when there is none. */
  async roomBefore(ctx: RequestContext): Promise<Room> {
    const room = await this.room(ctx);
    if (room.bytes <= 0) throw room.refusal();
    return room;
  }

  /**
   * Writes a stored file down for its owner: the quotas are checked again under the tenant's lock, so two
   * uploads at once cannot both take the last room. On any failure the file is removed and nothing is kept.
   */
  async keep(
    ctx: RequestContext,
    path: string,
    size: number,
    ossId: string | null = null,
    sha256: string | null = null,
  ): Promise<void> {
    const { db, config, configs } = this.deps;
    const graceMs = Math.round(config.UPLOAD_GRACE_MINUTES * 60_000);
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`app_upload:${ctx.tenantId}`}))`);
        const room = await this.room(ctx, tx as unknown as Db);
        if (size > room.bytes) throw room.refusal();
        await tx.insert(upload).values({
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          path,
          size,
          ossId,
          sha256,
          dueAt: sql`now() + ${graceMs} * interval '1 millisecond'`,
        });
      });
    } catch (e) {
      const key = storageKeyOf(path);
      if (key) await (await configs.forConfig(ossId)).remove(key);
      throw e;
    }
  }

  /**
   * One sweep: every row due when it starts, in batches, each in a transaction of its own that claims its
   * rows (`for update skip locked`: servers sweeping at once take different rows) and holds a share lock on
   * every table that may name them, so no write can name a file between the look and the removal (`nowait`:
   * a table being written now ends this sweep; the next one tries again). A file named is kept and looked
   * at again in a grace period; one named nowhere is removed from storage, then its row.
   */
  async sweep(log?: FastifyBaseLogger): Promise<{ removed: number; kept: number }> {
    const { db, config, configs } = this.deps;
    const graceMs = Math.round(config.UPLOAD_GRACE_MINUTES * 60_000);
    const { rows } = (await db.execute(sql`select clock_timestamp()::text as t`)) as unknown as {
      rows: { t: string }[];
    };
    const cutoff = rows[0].t;
    let removed = 0;
    let kept = 0;
    for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
      let looked = 0;
      try {
        looked = await db.transaction(async (tx) => {
          const due = await tx
            .select({ id: upload.id, path: upload.path, ossId: upload.ossId })
            .from(upload)
            .where(sql`${upload.dueAt} <= ${cutoff}::timestamptz`)
            .orderBy(asc(upload.dueAt))
            .limit(SWEEP_BATCH)
            .for('update', { skipLocked: true });
          if (!due.length) return 0;
          await tx.execute(sql`lock table ${sql.join(this.tables, sql`, `)} in share mode nowait`);
          const named = await this.namedAmong(
            tx as unknown as Db,
            due.map((d) => d.path),
          );
          const gone = due.filter((d) => !named.has(d.path));
          const stay = due.filter((d) => named.has(d.path));
          for (const d of gone) {
            const key = storageKeyOf(d.path);
            if (key) await (await configs.forConfig(d.ossId, tx as unknown as Db)).remove(key);
          }
          if (gone.length)
            await tx.delete(upload).where(
              inArray(
                upload.id,
                gone.map((d) => d.id),
              ),
            );
          if (stay.length)
            await tx
              .update(upload)
              .set({ dueAt: sql`${cutoff}::timestamptz + ${graceMs + 1} * interval '1 millisecond'` })
              .where(
                inArray(
                  upload.id,
                  stay.map((d) => d.id),
                ),
              );
          removed += gone.length;
          kept += stay.length;
          return due.length;
        });
      } catch (err) {
        // 55P03: a table that names files is being written; the next sweep looks again
        if (sqlState(err) === '55P03') {
          log?.info('upload sweep: a table was being written; trying at the next sweep');
          break;
        }
        throw err;
      }
      if (looked < SWEEP_BATCH) break;
    }
    if (removed) log?.info({ removed, kept }, 'upload sweep removed files no record names');
    return { removed, kept };
  }

  /** Which of `paths` a live record names (any tenant's: a path may be copied into another's record). */
  private async namedAmong(tx: Db, paths: string[]): Promise<Set<string>> {
    const pattern = paths.map(escapeRegex).join('|');
    const named = new Set<string>();
    for (const { table, column, live } of this.naming) {
      const hits = await tx
        .select({ text: column })
        .from(table)
        .where(and(...live, sql`${column} ~ ${pattern}`));
      for (const { text } of hits)
        for (const p of paths) if (typeof text === 'string' && text.includes(p)) named.add(p);
    }
    return named;
  }
}

/** The quota parameters on the parameter screen (installs seeded before them get them too). */
export async function seedUploadQuotas(db: Db) {
  const { params, defaults } = UPLOAD_QUOTA;
  const wanted = [
    {
      paramName: '用户上传空间(MB)',
      paramKey: params.user,
      paramValue: String(defaults.user),
      remark: '每个用户上传文件的总大小上限',
    },
    {
      paramName: '租户上传空间(MB)',
      paramKey: params.tenant,
      paramValue: String(defaults.tenant),
      remark: `每个租户上传文件的总大小上限;${params.tenant}.<租户ID> 可为单个租户另设`,
    },
  ];
  await addMissingParams(db, wanted);
}
