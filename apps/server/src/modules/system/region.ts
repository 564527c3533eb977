import { checkField, DEFAULT_TENANT_ID, type FieldDef, type Text2 } from '@smart/contracts';
import { and, asc, count, eq, ilike, inArray, like, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAnyPermission, requirePermission } from '../../platform/access/permissions';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { badRequest, FieldInputError, forbidden, notFound } from '../../platform/http/errors';
import { PageQuery, pagedList } from '../../platform/paging';
import { containsPattern } from '../../platform/sql';

/**
 * China's administrative divisions (spec §7 region): platform data keyed by the division code (2 digits a
 * province, 4 a city, 6 a county, 9 a town, 12 a village). Every signed-in user reads the lazy tree (the
 * pickers of business screens); the region screen's list, detail and changes follow the `region` codes, and
 * only the platform tenant changes the data. The table has no soft delete: a removal is final.
 */

const r = schema.region;
const ROOT = '00';
const CODE_RE = /^\d{2,12}$/;
const text = (zh: string, en: string): Text2 => ({ zh, en });

export const REGION_FIELDS = {
  code: {
    name: 'code',
    label: text('区划编号', 'region code'),
    type: 'text',
    required: true,
    pattern: '\\d{2,12}',
    patternMessage: text('区划编号必须是2到12位数字', 'the region code must be 2 to 12 digits'),
    requiredMessage: text('请输入区划编号', 'please enter region code'),
  },
  name: {
    name: 'name',
    label: text('区划名称', 'region name'),
    type: 'text',
    required: true,
    max: 64,
    requiredMessage: text('请输入区划名称', 'please enter region name'),
  },
  regionLevel: {
    name: 'regionLevel',
    label: text('区划层级', 'region level'),
    type: 'int',
    required: true,
    min: 1,
    max: 5,
    requiredMessage: text('请选择区划层级', 'please select region level'),
  },
  sort: { name: 'sort', label: text('排序', 'sort'), type: 'int', min: 0, max: 2_147_483_647 },
  remark: { name: 'remark', label: text('备注', 'remark'), type: 'text', max: 255 },
} satisfies Record<string, FieldDef>;

export const REGION_MESSAGES = {
  parentMissing: text('上级区划不存在', 'the parent region does not exist'),
  notUnderParent: text('区划编号须以上级区划编号开头', 'the region code must start with its parent code'),
};

type RegionRow = typeof r.$inferSelect;

const output = (row: RegionRow, parentName = '') => ({
  id: row.code,
  code: row.code,
  parentCode: row.parentCode,
  parentName,
  ancestors: row.ancestors,
  name: row.name,
  regionLevel: row.regionLevel,
  /** the family's name of the level, beside ours */
  level: row.regionLevel,
  sort: row.sort,
  remark: row.remark ?? '',
});

/** Registers /region/... on the /api/dfem-system scope. */
export function registerRegionRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  const requireWritable = (ctx: RequestContext) => {
    if (ctx.tenantId !== DEFAULT_TENANT_ID) throw forbidden();
  };

  app.get(
    '/region/list',
    {
      schema: {
        querystring: z.object({
          code: z.string().max(12).optional(),
          parentCode: z.string().max(12).optional(),
          name: z.string().max(64).optional(),
          regionLevel: z.union([z.literal(''), z.coerce.number().int().min(1).max(5)]).optional(),
          ...PageQuery.shape,
        }),
      },
    },
    async (req) => {
      requireCtx(req);
      await requirePermission(db, req, 'region');
      const q = req.query;
      const where = and(
        ...(q.code ? [like(r.code, `${q.code.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)] : []),
        ...(q.parentCode ? [eq(r.parentCode, q.parentCode)] : []),
        ...(q.name ? [ilike(r.name, containsPattern(q.name))] : []),
        ...(typeof q.regionLevel === 'number' ? [eq(r.regionLevel, q.regionLevel)] : []),
      );
      const page = await pagedList(q, {
        rows: db.select().from(r).where(where).orderBy(asc(r.regionLevel), asc(r.sort), asc(r.code)),
        total: db.select({ total: count() }).from(r).where(where),
        records: (rows) => rows.map((x) => output(x)),
      });
      return ok(req, page);
    },
  );

  /** The direct children of a code (none or 00: the provinces), as lazily loaded tree nodes. */
  /**
   * The family's cascading pickers (province → city → district): the divisions directly below `code`
   * (none: the provinces), `{ code, name, … }` as its selects read them. Open to signed-in users like the
   * lazy tree.
   */
  app.get(
    '/region/select',
    {
      schema: {
        querystring: z.object({ code: z.union([z.literal(''), z.string().regex(CODE_RE)]).optional() }),
      },
    },
    async (req) => {
      requireCtx(req);
      const rows = await db
        .select()
        .from(r)
        .where(eq(r.parentCode, req.query.code || ROOT))
        .orderBy(asc(r.sort), asc(r.code))
        .limit(5000);
      return ok(
        req,
        rows.map((x) => output(x)),
      );
    },
  );

  app.get(
    '/region/lazy-tree',
    { schema: { querystring: z.object({ parentCode: z.string().max(12).optional() }) } },
    async (req) => {
      requireCtx(req);
      const parentCode = req.query.parentCode || ROOT;
      const rows = await db
        .select({ code: r.code, parentCode: r.parentCode, name: r.name, regionLevel: r.regionLevel })
        .from(r)
        .where(eq(r.parentCode, parentCode))
        .orderBy(asc(r.sort), asc(r.code));
      const withChildren = rows.length
        ? await db
            .selectDistinct({ parentCode: r.parentCode })
            .from(r)
            .where(
              inArray(
                r.parentCode,
                rows.map((x) => x.code),
              ),
            )
        : [];
      const parents = new Set(withChildren.map((x) => x.parentCode));
      return ok(
        req,
        rows.map((x) => ({
          id: x.code,
          parentId: x.parentCode,
          title: x.name,
          key: x.code,
          value: x.code,
          hasChildren: parents.has(x.code),
          regionLevel: x.regionLevel,
        })),
      );
    },
  );

  app.get(
    '/region/detail',
    { schema: { querystring: z.object({ code: z.string().regex(CODE_RE) }) } },
    async (req) => {
      requireCtx(req);
      await requireAnyPermission(db, req, ['region_view', 'region_edit']);
      const [row] = await db.select().from(r).where(eq(r.code, req.query.code)).limit(1);
      if (!row) throw notFound();
      const [parent] =
        row.parentCode === ROOT
          ? []
          : await db.select({ name: r.name }).from(r).where(eq(r.code, row.parentCode)).limit(1);
      return ok(req, output(row, parent?.name ?? ''));
    },
  );

  /** Creates the division when its code is new, updates it when the code exists; ancestors follow the parent. */
  app.post('/region/submit', async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(db, req, ['region_add', 'region_edit']);
    requireWritable(ctx);
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest();
    const input = body as Record<string, unknown>;
    const check = (f: FieldDef, v: unknown) => {
      const err = checkField(f, v);
      if (err) throw new FieldInputError(f.name, err);
    };
    const str = (v: unknown) => String(v).trim();
    check(REGION_FIELDS.code, input.code);
    const code = str(input.code);

    const [known] = await db.select({ code: r.code }).from(r).where(eq(r.code, code)).limit(1);
    await requirePermission(db, req, known ? 'region_edit' : 'region_add');

    const saved = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [existing] = await tx.select().from(r).where(eq(r.code, code)).limit(1);
      const value = (name: keyof RegionRow, fallback?: unknown) =>
        Object.hasOwn(input, name) ? input[name] : existing ? existing[name] : fallback;

      const rawParent = value('parentCode', ROOT);
      const parentCode =
        rawParent === undefined || rawParent === null || str(rawParent) === '' ? ROOT : str(rawParent);
      let ancestors = ROOT;
      if (parentCode !== ROOT) {
        if (!CODE_RE.test(parentCode)) throw new FieldInputError('parentCode', REGION_MESSAGES.parentMissing);
        // codes nest: a division's code extends its parent's (which also rules out cycles)
        if (!code.startsWith(parentCode) || code.length <= parentCode.length)
          throw new FieldInputError('code', REGION_MESSAGES.notUnderParent);
        const [parent] = await tx
          .select({ code: r.code, ancestors: r.ancestors })
          .from(r)
          .where(eq(r.code, parentCode))
          .limit(1);
        if (!parent) throw new FieldInputError('parentCode', REGION_MESSAGES.parentMissing);
        ancestors = `${parent.ancestors},${parent.code}`;
      }
      const rawName = value('name');
      check(REGION_FIELDS.name, rawName);
      // the family's forms send `level`; ours `regionLevel` (which wins when both are sent)
      const rawLevel =
        !Object.hasOwn(input, 'regionLevel') && Object.hasOwn(input, 'level')
          ? input.level
          : value('regionLevel');
      check(REGION_FIELDS.regionLevel, rawLevel);
      const rawSort = value('sort', 0);
      check(REGION_FIELDS.sort, rawSort);
      const rawRemark = value('remark');
      check(REGION_FIELDS.remark, rawRemark);
      const isBlank = (v: unknown) => v === undefined || v === null || str(v) === '';
      const record = {
        parentCode,
        ancestors,
        name: str(rawName),
        regionLevel: Math.trunc(Number(rawLevel)),
        sort: isBlank(rawSort) ? 0 : Math.trunc(Number(rawSort)),
        remark: isBlank(rawRemark) ? null : str(rawRemark),
      };
      if (!existing) {
        const [row] = await tx
          .insert(r)
          .values({ code, ...record })
          .returning();
        return row;
      }
      const [row] = await tx.update(r).set(record).where(eq(r.code, code)).returning();
      if (existing.ancestors !== ancestors) {
        // the divisions below keep their path below this one
        const oldPath = `${existing.ancestors},${code}`;
        await tx
          .update(r)
          .set({ ancestors: sql`${`${ancestors},${code}`} || substr(${r.ancestors}, ${oldPath.length + 1})` })
          .where(or(eq(r.ancestors, oldPath), like(r.ancestors, `${oldPath},%`)));
      }
      return row;
    });
    return ok(req, output(saved));
  });

  /** Removes one division (id = its code); one that still has divisions below it is refused. */
  app.post(
    '/region/remove',
    { schema: { querystring: z.object({ id: z.string().regex(CODE_RE) }) } },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'region_delete');
      requireWritable(ctx);
      const code = req.query.id;
      await db.transaction(async (tx) => {
        const [child] = await tx.select({ code: r.code }).from(r).where(eq(r.parentCode, code)).limit(1);
        if (child) throw badRequest('hasChildren');
        const removed = await tx.delete(r).where(eq(r.code, code)).returning({ code: r.code });
        if (!removed.length) throw notFound();
      });
      return ok(req, true);
    },
  );
}
