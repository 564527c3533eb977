import { REGION_MESSAGES, REGION_ROOT } from '@smart/contracts';
import { and, asc, eq, inArray, like, notInArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { type Db, schema } from '../../platform/db';
import { badRequest, FieldInputError, invalidField } from '../../platform/http/errors';

/**
 * China's administrative divisions (spec §7 region) on the resource engine (`regionResource`: keyed by the
 * division code, platform rows every tenant reads, removals delete, no base columns). The engine serves
 * list, detail (`?code=`) and submit (a code that exists is edited, a new one added) with the `region`
 * codes, and only the platform tenant changes the data. This binding adds what a field cannot say — a code
 * extends its parent's, the parent exists, the ancestors follow the parent (and those below a moved division
 * follow it), a division with divisions below it is not removed, the family's `level` for `regionLevel`, a
 * `code` filter by prefix — the spec's `remove?id=`, and the pickers every signed-in user reads: the lazy
 * tree (lazy-tree?parentCode=) and the family's cascading selects (select?code=).
 */

const r = schema.region;
const CODE_RE = /^\d{2,12}$/;
const code = z.union([z.literal(''), z.string().regex(CODE_RE)]).optional();
/** the pickers answer every division below one code at once */
const PICK_LIMIT = 5000;

/** the parent's name beside each division ('' for a province); the outer row named by its table */
const parentName = sql<string>`coalesce((select p.name from blade_region p where p.code = blade_region.parent_code), '')`;

export function regionHooks(db: Db): ResourceHooks {
  return {
    beside: { parentName },
    toRow(row) {
      // the family's name of the level, beside ours; an optional remark as ''
      row.level = row.regionLevel;
      row.remark ??= '';
      return row;
    },
    defaultOrder: [asc(r.regionLevel), asc(r.sort), asc(r.code)],
    // `code=52`: that division and every one below it
    extraKeys: ['code'],
    extraWhere(_ctx, query) {
      const v = query.code;
      if (v === undefined || v === '') return undefined;
      if (typeof v !== 'string' || v.length > 12) throw invalidField('code');
      return like(r.code, `${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    },

    // the family's forms send `level`; ours `regionLevel` (which wins when both are sent)
    beforeValidate(_ctx, body) {
      if (!Object.hasOwn(body, 'regionLevel') && Object.hasOwn(body, 'level')) body.regionLevel = body.level;
    },

    /** codes nest: a division's code extends its parent's (which also rules out cycles); ancestors follow */
    async beforeWrite(_ctx, record, _mode, id, original) {
      const own = id ?? String(record.code);
      const parentCode = Object.hasOwn(record, 'parentCode')
        ? String(record.parentCode ?? '') || REGION_ROOT
        : String(original?.parentCode ?? REGION_ROOT);
      let ancestors = REGION_ROOT;
      if (parentCode !== REGION_ROOT) {
        if (!own.startsWith(parentCode) || own.length <= parentCode.length)
          throw new FieldInputError('code', REGION_MESSAGES.notUnderParent);
        const [parent] = await db
          .select({ code: r.code, ancestors: r.ancestors })
          .from(r)
          .where(eq(r.code, parentCode))
          .limit(1);
        if (!parent) throw new FieldInputError('parentCode', REGION_MESSAGES.parentMissing);
        ancestors = `${parent.ancestors},${parent.code}`;
      }
      record.parentCode = parentCode;
      record.ancestors = ancestors;
    },

    /** the divisions below a moved one keep their path below it */
    async afterChange(_ctx, changes, tx) {
      for (const c of changes) {
        if (c.mode !== 'update' || !c.original || c.original.ancestors === c.row.ancestors) continue;
        const oldPath = `${c.original.ancestors},${c.row.code}`;
        await tx
          .update(r)
          .set({
            ancestors: sql`${`${c.row.ancestors},${c.row.code}`} || substr(${r.ancestors}, ${oldPath.length + 1})`,
          })
          .where(or(eq(r.ancestors, oldPath), like(r.ancestors, `${oldPath},%`)));
      }
    },

    /** a division with divisions below it stays */
    async beforeRemove(_ctx, codes, tx) {
      const [child] = await tx
        .select({ code: r.code })
        .from(r)
        .where(and(inArray(r.parentCode, codes), notInArray(r.code, codes)))
        .limit(1);
      if (child) throw badRequest('hasChildren');
    },

    // spec §7: one division by its code, `remove?id=`
    removeRoutes: [{ method: 'POST', path: 'remove', idsParam: 'id' }],

    endpoints: [
      /** The direct children of a code (none or 00: the provinces), as lazily loaded tree nodes. */
      endpoint({
        method: 'GET',
        path: 'lazy-tree',
        picker: true,
        query: z.object({ parentCode: z.string().max(12).optional() }),
        async handler({ scope, query }) {
          const rows = await db
            .select({ code: r.code, parentCode: r.parentCode, name: r.name, regionLevel: r.regionLevel })
            .from(r)
            .where(and(eq(r.parentCode, query.parentCode || REGION_ROOT), scope))
            .orderBy(asc(r.sort), asc(r.code))
            .limit(PICK_LIMIT);
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
          return rows.map((x) => ({
            id: x.code,
            parentId: x.parentCode,
            title: x.name,
            key: x.code,
            value: x.code,
            hasChildren: parents.has(x.code),
            regionLevel: x.regionLevel,
          }));
        },
      }),

      /**
       * The family's cascading pickers (province → city → district): the divisions directly below `code`
       * (none: the provinces), each as the detail answers it. Replaces the engine's generic picker.
       */
      endpoint({
        method: 'GET',
        path: 'select',
        picker: true,
        query: z.object({ code }),
        async handler({ req, ctx, resource, scope, query }) {
          const rows = await db
            .select(resource.selection)
            .from(r)
            .where(and(eq(r.parentCode, query.code || REGION_ROOT), scope))
            .orderBy(asc(r.sort), asc(r.code))
            .limit(PICK_LIMIT);
          return resource.output(ctx, rows as Row[], req.lang);
        },
      }),
    ],
  };
}

/** The regions' table, bound to their definition (modules/resources.ts). */
export const regionBindings = (db: Db) => ({ region: { table: schema.region, hooks: regionHooks(db) } });
