import { DATASOURCE_KIND, parseDatasourceOptions, parseRecord, SQL_NAME } from '@smart/contracts';
import { and, eq, inArray, or } from 'drizzle-orm';
import { z } from 'zod';
import type { AreaDeps } from '../../platform/area';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint, rowInScope } from '../../platform/crud/endpoints';
import { mountedResource, readableRows } from '../../platform/crud/refs';
import { insertRows, liveRows, transaction } from '../../platform/crud/write';
import { FieldInputError, invalidField, notFound, TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { throttle } from '../../platform/throttle';
import { idIn, theId } from '../resource/enable-one';
import { type ColumnInfo, listTables, probe, SourceError, tableInfo } from './catalog';
import { prototypeOf } from './prototypes';

/**
 * 研发工具 on the engine (`datasource`, `model` with its `prototypes`), beyond the pattern:
 * - a data source's options are allow-listed per kind (`parseDatasourceOptions`: 400 naming the option);
 *   the product's own database (kind 0) is the seed's row alone — not added, edited or removed by anyone;
 *   `url` is answered in the family's JDBC form, never read; `datasource/test` (button `datasource_test`)
 *   connects and answers the server's version or the driver's code, at most 5 times a minute a user
 *   (a connection test is also a port scanner);
 * - `model/table-list?datasourceId=` and `model/table-info?modelId=|tableName=&datasourceId=` read the
 *   source's catalog (catalog.ts) — the source found within the caller's constraint on data sources;
 * - `model/sync { id, apply }` (button `model_sync`) compares the model's prototypes with the table's columns
 *   now: added, removed and changed columns answered; with `apply`, written through the prototypes' write
 *   path (a new column's prototype added, a gone one's removed, a changed type or comment updated);
 * - `model-prototype/submit-list` (an array, the model's edit code) writes each prototype through the write
 *   path; `model-prototype/select?modelId=` answers the model's fields for a picker.
 */

const sourceError = (e: unknown) => {
  if (!(e instanceof SourceError)) throw e;
  return new TextError(
    400,
    {
      zh: `数据源访问失败:${e.code} ${e.message}`,
      en: `The data source could not be read: ${e.code} ${e.message}`,
    },
    { code: e.code },
  );
};

function jdbcUrl(row: Row): string | null {
  const kind = String(row.kind);
  if (kind === DATASOURCE_KIND.own) return 'builtin';
  const scheme = kind === DATASOURCE_KIND.mysql ? 'mysql' : 'postgresql';
  const q = row.options ? `?${row.options}` : '';
  return `jdbc:${scheme}://${row.host}:${row.port}/${row.databaseName}${q}`;
}

/** The data source a caller may read, with its password (for the connection only). */
async function sourceFor(ctx: RequestContext, id: string): Promise<Row> {
  const m = mountedResource('datasource');
  const [row] = await m.db
    .select()
    .from(m.table)
    .where(and(await readableRows('datasource', ctx), eq(m.cols.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row as Row;
}

export function datasourceHooks(deps: AreaDeps): ResourceHooks {
  return {
    beforeWrite(_ctx, record, mode, _id, original) {
      const v = (k: string) => (Object.hasOwn(record, k) ? record[k] : original?.[k]);
      const kind = String(v('kind'));
      if (kind === DATASOURCE_KIND.own || String(original?.kind) === DATASOURCE_KIND.own)
        throw new FieldInputError('kind', {
          zh: '本系统数据库由系统提供,不能新增或修改',
          en: 'This system’s database is provided by the system: it is not added or edited',
        });
      const parsed = parseDatasourceOptions(kind, v('options') as string | null);
      if (!parsed.ok)
        throw new FieldInputError('options', {
          zh: `不允许的连接参数:${parsed.bad}`,
          en: `Connection option not allowed: ${parsed.bad}`,
        });
      if (mode === 'create' && !record.password)
        throw new FieldInputError('password', { zh: '请输入密码', en: 'Please enter the password' });
      record.url = jdbcUrl({ ...original, ...record });
    },
    async beforeRemove(_ctx, ids, tx) {
      const m = mountedResource('datasource');
      const own = await tx
        .select({ id: m.cols.id })
        .from(m.table)
        .where(and(inArray(m.cols.id, ids), eq(m.cols.kind, DATASOURCE_KIND.own)));
      if (own.length)
        throw new TextError(409, {
          zh: '本系统数据库不能删除',
          en: 'This system’s database cannot be removed',
        });
      const models = mountedResource('model');
      const used = await tx
        .select({ id: models.cols.id })
        .from(models.table)
        .where(and(inArray(models.cols.datasourceId, ids), ...liveRows(models)))
        .limit(1);
      if (used.length)
        throw new TextError(409, {
          zh: '仍有模型使用此数据源,不能删除',
          en: 'Models still read from this data source: it cannot be removed',
        });
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'test',
        codeSuffix: '_test',
        query: idIn,
        body: idIn,
        async handler({ ctx, query, body }) {
          await throttle(deps.kv, `datasource-test:${ctx.tenantId}:${ctx.userId}`, 5, 60);
          const source = await sourceFor(ctx, theId(query, body));
          const started = Date.now();
          try {
            return {
              ok: true,
              version: await probe(source, deps.db),
              ms: Date.now() - started,
              code: null,
              message: null,
            };
          } catch (e) {
            if (!(e instanceof SourceError)) throw e;
            return { ok: false, version: null, ms: Date.now() - started, code: e.code, message: e.message };
          }
        },
      }),
    ],
  };
}

const tableName = z.string().regex(new RegExp(SQL_NAME));

/** What a sync would change: the columns added to, removed from and changed in the table since. */
function diff(prototypes: Row[], columns: ColumnInfo[]) {
  const byName = new Map(prototypes.map((p) => [String(p.jdbcName), p]));
  const names = new Set(columns.map((c) => c.name));
  const added = columns.filter((c) => !byName.has(c.name));
  const removed = prototypes.filter((p) => !names.has(String(p.jdbcName)));
  const changed = columns
    .map((c) => ({ c, p: byName.get(c.name) }))
    .filter(
      ({ c, p }) =>
        p &&
        (String(p.jdbcType) !== c.type.slice(0, 64) ||
          String(p.jdbcComment ?? '') !== String(c.comment ?? '')),
    );
  return { added, removed, changed };
}

async function prototypesOf(m: MountedResource, ctx: RequestContext, modelId: string): Promise<Row[]> {
  return (await m.db
    .select()
    .from(m.table)
    .where(and(await m.constraint(ctx), eq(m.cols.modelId, modelId)))) as Row[];
}

export function modelHooks(deps: AreaDeps): ResourceHooks {
  return {
    /** a model a code generation setting is made from is not removed (the setting would name nothing) */
    async beforeRemove(_ctx, ids, tx) {
      const codes = mountedResource('code');
      const used = await tx
        .select({ id: codes.cols.id })
        .from(codes.table)
        .where(
          and(or(inArray(codes.cols.modelId, ids), inArray(codes.cols.subModelId, ids)), ...liveRows(codes)),
        )
        .limit(1);
      if (used.length)
        throw new TextError(409, {
          zh: '仍有代码生成配置使用此模型,不能删除',
          en: 'Code generation settings still use this model: it cannot be removed',
        });
    },
    async beforeWrite(ctx, record, mode, _id, original) {
      if (mode !== 'create' && !Object.hasOwn(record, 'modelTable') && !Object.hasOwn(record, 'datasourceId'))
        return;
      const source = await sourceFor(ctx, String(record.datasourceId ?? original?.datasourceId)).catch(
        () => null,
      );
      if (!source) return; // the reference check says so
      const table = String(record.modelTable ?? original?.modelTable);
      const info = await tableInfo(source, deps.db, table).catch((e) => {
        throw sourceError(e);
      });
      if (!info)
        throw new FieldInputError('modelTable', {
          zh: `数据源中没有表 ${table}`,
          en: `The data source has no table ${table}`,
        });
    },
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'table-list',
        codeSuffix: '',
        query: z.object({ datasourceId: idString }).strict(),
        async handler({ ctx, query }) {
          const source = await sourceFor(ctx, query.datasourceId);
          return listTables(source, deps.db).catch((e) => {
            throw sourceError(e);
          });
        },
      }),
      endpoint({
        method: 'GET',
        path: 'table-info',
        codeSuffix: '',
        query: z
          .object({
            modelId: idString.optional(),
            tableName: tableName.optional(),
            datasourceId: idString.optional(),
          })
          .strict(),
        async handler({ ctx, resource, scope, query }) {
          let sourceId = query.datasourceId;
          let table = query.tableName;
          if (query.modelId) {
            const model = await rowInScope(resource, scope, query.modelId);
            sourceId = String(model.datasourceId);
            table = String(model.modelTable);
          }
          if (!sourceId) throw invalidField('datasourceId');
          if (!table) throw invalidField('tableName');
          const info = await tableInfo(await sourceFor(ctx, sourceId), deps.db, table).catch((e) => {
            throw sourceError(e);
          });
          if (!info) throw notFound();
          return { ...info, prototypes: info.columns.map((c, i) => prototypeOf(c, i)) };
        },
      }),
      endpoint({
        method: 'POST',
        path: 'sync',
        codeSuffix: '_sync',
        query: z.object({}).strict(),
        body: z.object({ id: idString, apply: z.boolean().optional() }).strict(),
        async handler({ ctx, resource, scope, body }) {
          const model = await rowInScope(resource, scope, body.id);
          const info = await tableInfo(
            await sourceFor(ctx, String(model.datasourceId)),
            deps.db,
            String(model.modelTable),
          ).catch((e) => {
            throw sourceError(e);
          });
          if (!info)
            throw new TextError(409, {
              zh: `数据源中已没有表 ${model.modelTable}`,
              en: `The data source no longer has table ${model.modelTable}`,
            });
          const protos = mountedResource('modelPrototype');
          const d = diff(await prototypesOf(protos, ctx, body.id), info.columns);
          const answer = {
            added: d.added.map((c) => c.name),
            removed: d.removed.map((p) => String(p.jdbcName)),
            changed: d.changed.map(({ c }) => c.name),
            applied: false,
          };
          if (!body.apply) return answer;
          const start = info.columns.length;
          await transaction(resource.db, async (tx) => {
            const scopeP = await protos.constraint(ctx, tx);
            if (d.added.length)
              await insertRows(
                protos,
                ctx,
                tx,
                d.added.map((c, i) => ({ ...prototypeOf(c, start + i), modelId: body.id })),
              );
            for (const { c, p } of d.changed)
              if (p)
                await protos.patch(
                  ctx,
                  tx,
                  String(p.id),
                  { jdbcType: c.type.slice(0, 64), jdbcComment: c.comment?.slice(0, 255) ?? null },
                  scopeP,
                );
          });
          if (d.removed.length)
            await protos.remove(
              ctx,
              d.removed.map((p) => String(p.id)),
            );
          return { ...answer, applied: true };
        },
      }),
    ],
  };
}

const Prototype = z.record(z.string().max(32), z.unknown());

export function modelPrototypeHooks(): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'submit-list',
        codeSuffix: '_edit',
        query: z.object({}).strict(),
        body: z.array(Prototype).min(1).max(300),
        async handler({ ctx, resource, scope, body }) {
          // each row by the definition's rules, as the form's submit checks it, before anything is written
          const rows: { id?: string; record: Record<string, unknown> }[] = [];
          for (const raw of body) {
            const { id, ...sent } = raw as Record<string, unknown>;
            const editing = id !== undefined && id !== null && id !== '';
            const parsed = parseRecord(resource.def, sent, editing ? 'update' : 'create');
            if (parsed.error) throw new FieldInputError(parsed.error.field, parsed.error.message);
            const record = parsed.record;
            if (editing) {
              const key = idString.safeParse(String(id));
              if (!key.success) throw invalidField('id');
              // never the model a prototype belongs to
              delete record.modelId;
              await resource.check(ctx, record, 'update', key.data);
              rows.push({ id: key.data, record });
            } else {
              await resource.check(ctx, record, 'create');
              rows.push({ record });
            }
          }
          const written: string[] = [];
          await transaction(resource.db, async (tx) => {
            for (const r of rows)
              if (r.id) written.push(String((await resource.patch(ctx, tx, r.id, r.record, scope)).id));
              else {
                const [w] = await insertRows(resource, ctx, tx, [r.record], { answer: true });
                written.push(String(w.row.id));
              }
          });
          return { ids: written };
        },
      }),
      endpoint({
        method: 'GET',
        path: 'select',
        codeSuffix: '',
        query: z.object({ modelId: idString }).strict(),
        async handler({ resource, scope, query }) {
          return resource.db
            .select({
              id: resource.cols.id,
              jdbcName: resource.cols.jdbcName,
              propertyName: resource.cols.propertyName,
              jdbcComment: resource.cols.jdbcComment,
            })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.modelId, query.modelId)))
            .orderBy(resource.cols.sort)
            .then((rows) => rows.map((r) => ({ ...r, id: String(r.id) })));
        },
      }),
    ],
  };
}
