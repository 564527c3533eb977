import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OSS_LOCAL, type OssTestResult, type OssTestStep, type OssTestStepResult } from '@smart/contracts';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../platform/config';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint, rowInScope } from '../../platform/crud/endpoints';
import type { Db } from '../../platform/db';
import { FieldInputError, TextError } from '../../platform/http/errors';
import { LocalStorage } from '../../platform/storage';
import { providerError, S3Storage } from '../../platform/storage-s3';
import { enableOnly, idIn, theId } from './enable-one';
import { mountedOss, settingsOf } from './oss';
import { upload } from './tables';

/**
 * 对象存储 (`oss`, dfem-resource) on the engine: list, detail, submit and remove are the engine's; this
 * binding adds what a storage config needs beyond them —
 * - **enable** (`POST oss/enable { id }`, button `oss_enable`): once the config passes the test below (else
 *   409 with its steps), in one transaction under the tenant's lock, the config is enabled and every other
 *   config of the tenant disabled, each through the write path.
 * - **test** (`POST oss/test { id }`, button `oss_test`): a probe object is put, headed, read back (and
 *   compared) and deleted, each step answered with whether it passed and the provider's own code, message
 *   and HTTP status when it did not.
 * - A config files live in keeps its kind, endpoint and bucket (a change would lose them: a new config is
 *   made instead), and is never removed; the enabled config is not removed either (enable another first).
 *   The secret key is write-only (the definition's `secret`): an S3 config is created with one.
 */

const S3_PLACE = ['category', 'endpoint', 'bucketName'] as const;

/** How many stored files live in each of these configs. */
async function filesIn(db: Db, ids: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ ossId: upload.ossId, n: count() })
    .from(upload)
    .where(inArray(upload.ossId, ids))
    .groupBy(upload.ossId);
  return new Map(rows.map((r) => [String(r.ossId), Number(r.n)]));
}

/** One step of a test, timed, with the provider's answer when it failed. */
async function step(name: OssTestStep, run: () => Promise<void>): Promise<OssTestStepResult> {
  const started = Date.now();
  try {
    await run();
    return { step: name, ok: true, code: null, message: null, status: null, ms: Date.now() - started };
  } catch (e) {
    const p = providerError(e);
    return { step: name, ok: false, ...p, ms: Date.now() - started };
  }
}

const skipped = (name: OssTestStep): OssTestStepResult => ({
  step: name,
  ok: false,
  code: 'Skipped',
  message: 'not run: an earlier step failed',
  status: null,
  ms: 0,
});

/** Puts, heads, gets (comparing the bytes) and deletes a probe object; the delete runs whenever the put did. */
export async function testStorage(row: Row, config: Pick<Config, 'DATA_DIR'>): Promise<OssTestResult> {
  const key = `.probe/${randomUUID()}.txt`;
  const body = Buffer.from(`smart-admin storage probe ${randomBytes(12).toString('hex')}\n`);
  const local = String(row.category) === OSS_LOCAL;
  const s3 = local ? null : new S3Storage(settingsOf(row), join(tmpdir(), 'smart-oss-spool'));
  const disk = new LocalStorage(config.DATA_DIR);
  try {
    const put = await step('put', () => (s3 ? s3.put(key, body) : disk.put(key, body)));
    if (!put.ok) return { ok: false, steps: [put, skipped('head'), skipped('get'), skipped('delete')] };
    const head = await step('head', async () => {
      const size = s3 ? await s3.head(key) : await disk.size(key);
      if (size !== body.length)
        throw { code: 'SizeMismatch', message: `stored ${size ?? 'nothing'} bytes, sent ${body.length}` };
    });
    const get = await step('get', async () => {
      const got = s3 ? await s3.get(key) : await readAll(disk, key);
      if (!got.equals(body)) throw { code: 'ContentMismatch', message: 'the bytes read back differ' };
    });
    const del = await step('delete', () => (s3 ? s3.remove(key) : disk.remove(key)));
    const steps = [put, head, get, del];
    return { ok: steps.every((s) => s.ok), steps };
  } finally {
    s3?.destroy();
  }
}

async function readAll(disk: LocalStorage, key: string): Promise<Buffer> {
  const stream = disk.open(key);
  if (!stream) throw { code: 'NoSuchKey', message: 'the probe file is not on the disk' };
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function ossHooks(deps: { config: Config }): ResourceHooks {
  return {
    async beforeWrite(_ctx, record, mode, id, original) {
      const v = (k: string) => (Object.hasOwn(record, k) ? record[k] : original?.[k]);
      const s3 = String(v('category')) !== OSS_LOCAL;
      if (s3 && mode === 'create' && !record.secretKey)
        throw new FieldInputError('secretKey', { zh: '请输入 SecretKey', en: 'Please enter the secret key' });
      if (mode === 'update' && id && original) {
        const moved = S3_PLACE.filter(
          (k) => Object.hasOwn(record, k) && String(record[k] ?? '') !== String(original[k] ?? ''),
        );
        if (!moved.length) return;
        const n = (await filesIn(mountedOss().db, [id])).get(id) ?? 0;
        if (n)
          throw new TextError(
            409,
            {
              zh: `已有 ${n} 个文件存放在此配置中,不能更改存储类型、地址或存储桶;请新建一个配置并启用`,
              en: `${n} files live in this config: its kind, endpoint and bucket cannot change; add a new config and enable it`,
            },
            { field: moved[0], files: n },
          );
      }
    },
    async beforeRemove(_ctx, ids, tx) {
      const m = mountedOss();
      const on = await tx
        .select({ id: m.cols.id })
        .from(m.table)
        .where(and(inArray(m.cols.id, ids), eq(m.cols.enabled, 1)));
      if (on.length)
        throw new TextError(409, {
          zh: '不能删除已启用的存储配置:请先启用另一个配置',
          en: 'The enabled storage config cannot be removed: enable another one first',
        });
      const used = [...(await filesIn(tx, ids)).values()].reduce((a, b) => a + b, 0);
      if (used)
        throw new TextError(
          409,
          {
            zh: `仍有 ${used} 个文件存放在此配置中,不能删除`,
            en: `${used} files still live in this config: it cannot be removed`,
          },
          { files: used },
        );
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'enable',
        codeSuffix: '_enable',
        query: idIn,
        body: idIn,
        async handler({ ctx, resource, scope, query, body: sent }) {
          const body = { id: theId(query, sent) };
          // a bucket is enabled only once it takes, gives back and deletes a file: a tenant's uploads
          // never start failing because a key or an address was mistyped
          const row = await rowInScope(resource, scope, body.id);
          const probe = await testStorage(row as Row, deps.config);
          const failed = probe.steps.find((x) => !x.ok);
          if (failed)
            throw new TextError(
              409,
              {
                zh: `存储测试未通过,不能启用:${failed.step} ${failed.code} ${failed.message}`,
                en: `The storage test failed, so it cannot be enabled: ${failed.step} ${failed.code} ${failed.message}`,
              },
              { steps: probe.steps },
            );
          return enableOnly(resource, ctx, scope, body.id);
        },
      }),
      endpoint({
        method: 'POST',
        path: 'test',
        codeSuffix: '_test',
        query: idIn,
        body: idIn,
        async handler({ resource, scope, query, body: sent }) {
          const body = { id: theId(query, sent) };
          const row = await rowInScope(resource, scope, body.id);
          return testStorage(row as Row, deps.config);
        },
      }),
    ],
  };
}
