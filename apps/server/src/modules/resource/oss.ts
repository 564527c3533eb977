import { join } from 'node:path';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { OSS_LOCAL } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { Row } from '../../platform/crud/binding';
import { mountedResource } from '../../platform/crud/refs';
import { liveRows } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { TextError } from '../../platform/http/errors';
import type { FileStorage, ObjectStorage } from '../../platform/storage';
import { providerError, type S3Settings, S3Storage } from '../../platform/storage-s3';
import { upload } from './tables';

/**
 * The one storage layer every uploaded file goes through (issue 35, "keys, not URLs"). A tenant writes to
 * its enabled storage config (`oss/enable`), or to the local disk when it has none; the upload's row
 * (`app_upload`) keeps the object's key — the path records name, `/api/…/file/image/<uuid>.png`, stands for
 * `village/<uuid>.png` — and the config it was written to. Reading a file looks that config up at the moment
 * it is read: the local disk streams it; a bucket is answered with a URL made now (the public domain of a
 * public bucket, a short-lived signed GET of a private one). No record holds a bucket's URL, so a bucket
 * turned private, a new public domain or an expired link never breaks a stored value; switching the enabled
 * config leaves old files readable where they are.
 */

export const mountedOss = () => mountedResource('oss');

/** A config as stored (the secret included: read by the server only, never answered). */
export interface OssConfig {
  id: string;
  tenantId: string;
  category: string;
  settings: S3Settings;
  /** what its client is made of: a cached client of other settings is made again */
  stamp: string;
}

export const isLocal = (c: Pick<OssConfig, 'category'>) => c.category === OSS_LOCAL;

/** The S3 settings a row (or a submit's record over the stored row) says. */
export function settingsOf(r: Row): S3Settings {
  const s = (k: string) => (r[k] === null || r[k] === undefined ? '' : String(r[k]));
  return {
    endpoint: s('endpoint'),
    publicDomain: s('transformEndpoint') || null,
    bucket: s('bucketName'),
    region: s('region') || 'us-east-1',
    pathStyle: Number(r.pathStyle ?? 1) === 1,
    isPublic: Number(r.isPublic ?? 0) === 1,
    accessKey: s('accessKey'),
    secretKey: s('secretKey'),
    signExpiry: Number(r.signExpiry ?? 600) || 600,
  };
}

function configOf(r: Row): OssConfig {
  const settings = settingsOf(r);
  const category = String(r.category ?? '');
  return {
    id: String(r.id),
    tenantId: String(r.tenantId),
    category,
    settings,
    stamp: JSON.stringify([category, settings]),
  };
}

/** How many S3 clients are kept at once (one per config in use) */
const CLIENTS_KEPT = 64;

export class StorageConfigs {
  private readonly clients = new Map<string, { stamp: string; store: S3Storage }>();
  private readonly spoolDir: string;

  constructor(
    private readonly db: Db,
    private readonly local: FileStorage,
    dataDir: string,
  ) {
    this.spoolDir = join(dataDir, 'uploads', '.spool');
  }

  /** A config by id, whichever tenant's and even removed (its files are still read from it). */
  async byId(id: string, via: Db = this.db): Promise<OssConfig | null> {
    const m = mountedOss();
    const [row] = await via.select().from(m.table).where(eq(m.cols.id, id)).limit(1);
    return row ? configOf(row as Row) : null;
  }

  /** The tenant's enabled config, or null (the local disk). */
  async enabledOf(tenantId: string): Promise<OssConfig | null> {
    const m = mountedOss();
    const [row] = await this.db
      .select()
      .from(m.table)
      .where(and(eq(m.cols.tenantId, tenantId), eq(m.cols.enabled, 1), ...liveRows(m)))
      .limit(1);
    return row ? configOf(row as Row) : null;
  }

  /** The storage a config's files live in (the local disk for none, or a local-disk config). */
  storageOf(config: OssConfig | null): ObjectStorage {
    if (!config || isLocal(config)) return this.local;
    const kept = this.clients.get(config.id);
    if (kept && kept.stamp === config.stamp) return kept.store;
    kept?.store.destroy();
    this.clients.delete(config.id);
    if (this.clients.size >= CLIENTS_KEPT) {
      const [oldest] = this.clients.keys();
      this.clients.get(oldest)?.store.destroy();
      this.clients.delete(oldest);
    }
    const store = new S3Storage(config.settings, this.spoolDir);
    this.clients.set(config.id, { stamp: config.stamp, store });
    return store;
  }

  /** Where a tenant's new upload goes: its enabled config's id (null: the default local disk) and storage. */
  async forUpload(tenantId: string): Promise<{ ossId: string | null; store: ObjectStorage }> {
    const config = await this.enabledOf(tenantId);
    return { ossId: config?.id ?? null, store: this.storageOf(config) };
  }

  /** The storage a stored file lives in, by the config its upload row names. */
  async forConfig(ossId: string | null | undefined, via?: Db): Promise<ObjectStorage> {
    if (!ossId) return this.local;
    return this.storageOf(await this.byId(ossId, via));
  }

  /**
   * Where the file a path names is read from now: `{ url }` of its bucket (public, or signed for a while),
   * or `{ local: true }` when the product serves it from the disk (a file of no upload row is a seeded one,
   * on the disk).
   */
  async locate(
    path: string,
    key: string,
    opts: { contentDisposition?: string } = {},
  ): Promise<{ url: string } | { local: true }> {
    const [row] = await this.db
      .select({ ossId: upload.ossId })
      .from(upload)
      .where(eq(upload.path, path))
      .limit(1);
    const store = await this.forConfig(row?.ossId);
    return store.link ? { url: await store.link(key, opts) } : { local: true };
  }

  /** Whether the file a path names is stored (a reference to a photo checks it exists). */
  async exists(path: string, key: string): Promise<boolean> {
    const [row] = await this.db
      .select({ ossId: upload.ossId })
      .from(upload)
      .where(eq(upload.path, path))
      .limit(1);
    const store = await this.forConfig(row?.ossId);
    return (await store.size(key)) !== null;
  }

  close() {
    for (const { store } of this.clients.values()) store.destroy();
    this.clients.clear();
  }
}

/** Whether a failure is the storage's own answer (or its network's), not the request's. */
export function isProviderFailure(e: unknown): boolean {
  return e instanceof S3ServiceException || (e as { $metadata?: unknown })?.$metadata !== undefined;
}

/** A write the storage refused, said with the provider's code and message (502: the storage, not the caller). */
export function storageRefused(e: unknown): TextError {
  const p = providerError(e);
  return new TextError(
    502,
    {
      zh: `文件存储失败:${p.code} ${p.message}`,
      en: `The file storage refused the file: ${p.code} ${p.message}`,
    },
    { code: p.code, status: p.status },
  );
}
