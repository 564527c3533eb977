import { codeResource, parseRecord } from '@smart/contracts';
import { and, eq, like } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { strToU8, zipSync } from 'fflate';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource, readableRows } from '../../platform/crud/refs';
import { insertRows, transaction } from '../../platform/crud/write';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { idIn, theId } from '../resource/enable-one';
import { type CodegenInput, compareWithCurrent, type GenFile, generateCode } from './codegen';

/**
 * 代码生成 (`code`, blade_code) on the engine, beyond list / detail / submit / remove:
 * - `code/preview { id, current? }` (button `code_preview`): the generated files, each with its state
 *   against `current` (path → the target tree's content): new, same, update (an untouched older
 *   generation: overwritten), edited (its header's hash no longer matches: kept and reported), foreign;
 * - `code/gen-code?id=&system=` (button `code_gen`): a zip whose entries are exactly the preview's files,
 *   byte for byte, in the same order (fixed time stamps: the same row gives the same bytes);
 * - `code/copy { id }` (the add code): the row again through the write path, named `<name>-copy` (then
 *   `-copy2`, … while the name is taken).
 * The model and its prototypes are read within the caller's constraint on models: another tenant's is 404.
 */

async function one(key: string, ctx: RequestContext, id: string): Promise<Row | undefined> {
  const m = mountedResource(key);
  const [row] = await m.db
    .select()
    .from(m.table)
    .where(and(await readableRows(key, ctx), eq(m.cols.id, id)))
    .limit(1);
  return row as Row | undefined;
}

async function prototypesOf(ctx: RequestContext, modelId: string): Promise<Row[]> {
  const m = mountedResource('modelPrototype');
  return (await m.db
    .select()
    .from(m.table)
    .where(and(await readableRows('modelPrototype', ctx), eq(m.cols.modelId, modelId)))) as Row[];
}

/** What generation reads for a code row the caller may read. */
export async function inputOf(ctx: RequestContext, code: Row): Promise<CodegenInput> {
  const model = await one('model', ctx, String(code.modelId));
  if (!model) throw new FieldInputError('modelId', { zh: '模型不存在', en: 'The model does not exist' });
  const input: CodegenInput = { code, model, prototypes: await prototypesOf(ctx, String(model.id)) };
  if (String(code.templateType) === 'sub') {
    const sub = code.subModelId ? await one('model', ctx, String(code.subModelId)) : undefined;
    if (!sub)
      throw new FieldInputError('subModelId', {
        zh: '子表模型不存在',
        en: 'The detail model does not exist',
      });
    const prototypes = await prototypesOf(ctx, String(sub.id));
    if (!prototypes.some((p) => p.propertyName === code.subForeignKey))
      throw new FieldInputError('subForeignKey', {
        zh: `子表模型没有属性 ${code.subForeignKey}`,
        en: `The detail model has no property ${code.subForeignKey}`,
      });
    if (String(sub.modelCode) === String(model.modelCode))
      throw new FieldInputError('subModelId', {
        zh: '子表模型不能是主表模型',
        en: 'The detail model cannot be the master model',
      });
    input.sub = { model: sub, prototypes };
  }
  return input;
}

/** The zip of some files: entries in their order, stored at a fixed time (the same files, the same bytes). */
export function zipOf(files: GenFile[]): Uint8Array {
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const f of files) entries[f.path] = [strToU8(f.content), { mtime: new Date(2000, 0, 1) }];
  return zipSync(entries, { level: 6 });
}

const Current = z.record(z.string().min(1).max(300), z.string().max(1_000_000));

async function rowOf(resourceScope: Parameters<typeof and>[0], id: string): Promise<Row> {
  const m = mountedResource('code');
  const [row] = await m.db
    .select()
    .from(m.table)
    .where(and(resourceScope, eq(m.cols.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row as Row;
}

export function codeHooks(): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'preview',
        codeSuffix: '_preview',
        query: z.object({}).strict(),
        body: z.object({ id: idString, current: Current.optional() }).strict(),
        bodyLimit: 8 * 1024 * 1024,
        async handler({ ctx, scope, body }) {
          const code = await rowOf(scope, body.id);
          const files = await generateCode(await inputOf(ctx, code));
          return { files: compareWithCurrent(files, body.current) };
        },
      }),
      endpoint({
        method: 'GET',
        path: 'gen-code',
        codeSuffix: '_gen',
        query: z
          .object({
            id: idString,
            system: z
              .string()
              .regex(/^[a-z]{1,16}$/)
              .optional(),
          })
          .strict(),
        async handler({ ctx, scope, query, reply }) {
          const code = await rowOf(scope, query.id);
          const files = await generateCode(await inputOf(ctx, code));
          const name = String(code.serviceName);
          (reply as FastifyReply)
            .header('content-type', 'application/zip')
            .header('content-disposition', `attachment; filename="${name}.zip"`)
            .send(Buffer.from(zipOf(files)));
          return reply;
        },
      }),
      endpoint({
        method: 'POST',
        path: 'copy',
        codeSuffix: '_add',
        query: idIn,
        body: idIn,
        async handler({ ctx, resource, scope, query, body }) {
          const row = await rowOf(scope, theId(query, body));
          const record: Record<string, unknown> = {};
          for (const f of codeResource.fields)
            if (f.form !== false && !f.readOnly && row[f.name] !== undefined && row[f.name] !== null)
              record[f.name] = f.type === 'ref' ? String(row[f.name]) : row[f.name];
          const base = `${String(row.codeName).slice(0, 56)}-copy`;
          const taken = new Set(
            (
              await resource.db
                .select({ n: resource.cols.codeName })
                .from(resource.table)
                .where(and(await resource.tenantConstraint(ctx), like(resource.cols.codeName, `${base}%`)))
            ).map((r) => String(r.n)),
          );
          let name = base;
          for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
          record.codeName = name;
          const parsed = parseRecord(resource.def, record, 'create');
          if (parsed.error) throw new FieldInputError(parsed.error.field, parsed.error.message);
          await resource.check(ctx, parsed.record, 'create');
          const [w] = await transaction(resource.db, (tx) =>
            insertRows(resource, ctx, tx, [parsed.record], { answer: true }),
          );
          return { id: String(w.row.id), codeName: name };
        },
      }),
    ],
  };
}
