import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, idRef, tenantColumn } from '../../platform/db/columns';

/**
 * Every file an upload stored (uploads.ts): who stored it, for which tenant, where, how large and when. The
 * quotas are sums over it; the sweep walks it (never the disk) for files no record names.
 */
export const upload = pgTable(
  'app_upload',
  {
    id: id(),
    tenantId: tenantColumn(),
    userId: idRef('user_id').notNull(),
    /** the path the upload answered (`/api/dfem-hope-manage/file/image/<uuid>.png`), which records keep */
    path: varchar('path', { length: 255 }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /**
     * the storage config (`blade_oss`) the file was written to, read from it whichever config is enabled
     * now; null: the local disk by default (a tenant without a config, and every file before configs)
     */
    ossId: idRef('oss_id'),
    /**
     * the content's SHA-256 (hex) of an attachment (`attach/upload`): a tenant stores one content once, and
     * the same file uploaded again names this path; null for every other upload
     */
    sha256: varchar('sha256', { length: 64 }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    /** when the sweep looks at it next: the end of its grace period, then once per grace period */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('app_upload_path_uq').on(t.path),
    index('app_upload_user_idx').on(t.userId),
    index('app_upload_tenant_idx').on(t.tenantId),
    index('app_upload_due_idx').on(t.dueAt),
    index('app_upload_oss_idx').on(t.ossId),
    uniqueIndex('app_upload_sha256_uq').on(t.tenantId, t.sha256).where(sql`sha256 is not null`),
  ],
);
