import {
  clampScore,
  evaluationTotal,
  PROJECT_STATUS,
  parseRuleWeights,
  type WeightedRule,
  weightSum,
} from '@smart/contracts';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { transition } from '../../platform/crud/transitions';
import { transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ApiError, FieldInputError, notFound } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { evaluationCredits } from '../mall/credits';
import { evaluationList, evaluationProject, evaluationRule, evaluationRuleCategory } from './tables';

/**
 * Evaluation's bindings: what the fields cannot say. A project's weights sum to exactly 100 over rules of
 * the tenant (every write path: submit and import run `beforeWrite`); a published project and its lists are
 * frozen (edit, removal and scoring refused) until `evaluationProject/reopen`, which records who, when and
 * why in the project's `reopenHistory`; `evaluationList/score` clamps each score to its rule's maximum and
 * stores the weighted total computed by the contracts' `evaluationTotal` (the screen previews with it);
 * each list row answers its `rank` within its project (standard competition ranking: 1, 1, 3) and
 * whether it is `tied` (并列).
 */

const frozen = () => new ApiError(409, 'evaluationFrozen');
const idBody = z.object({ id: z.string().regex(/^\d{1,20}$/) }).strict();

/** a project of the caller's tenant, live (for update: locked until the transaction ends) */
async function projectOf(db: Db, ctx: RequestContext, id: string, lock = false) {
  const q = db
    .select({
      id: evaluationProject.id,
      projectStatus: evaluationProject.projectStatus,
      ruleWeights: evaluationProject.ruleWeights,
      reopenHistory: evaluationProject.reopenHistory,
    })
    .from(evaluationProject)
    .where(
      and(
        eq(evaluationProject.id, id),
        eq(evaluationProject.tenantId, ctx.tenantId),
        notDeleted(evaluationProject.isDeleted),
      ),
    )
    .limit(1);
  const [row] = await (lock ? q.for('update') : q);
  return row;
}

/** the rules a project weighs, with their names and maxima (rules of the tenant still on record) */
async function projectRules(db: Db, ctx: RequestContext, ruleWeights: unknown) {
  const weights = parseRuleWeights(ruleWeights) ?? [];
  if (!weights.length) return [];
  const rows = await db
    .select({ id: evaluationRule.id, name: evaluationRule.name, maxScore: evaluationRule.maxScore })
    .from(evaluationRule)
    .where(
      and(
        inArray(
          evaluationRule.id,
          weights.map((w) => w.ruleId),
        ),
        eq(evaluationRule.tenantId, ctx.tenantId),
        notDeleted(evaluationRule.isDeleted),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return weights
    .filter((w) => byId.has(w.ruleId))
    .map((w) => ({
      ruleId: w.ruleId,
      name: String(byId.get(w.ruleId)!.name),
      weight: w.weight,
      maxScore: Number(byId.get(w.ruleId)!.maxScore),
    }));
}

const weightsMessage = (sum: number) => ({
  zh: `规则及权重:各规则权重之和须恰好为 100(现为 ${sum})`,
  en: `Rules and weights: the weights must sum to exactly 100 (they sum to ${sum})`,
});

function projectHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record, mode, id, original) {
      // an import's update names its row by key and brings no original: read it
      const was = original ?? (mode === 'update' && id ? await projectOf(db, ctx, id) : undefined);
      if (mode === 'update' && was?.projectStatus === PROJECT_STATUS.published) throw frozen();
      if (mode === 'create') {
        record.projectStatus = PROJECT_STATUS.draft;
        record.reopenHistory = '[]';
      }
      if (record.ruleWeights === undefined) return;
      const weights = parseRuleWeights(record.ruleWeights);
      if (!weights)
        throw new FieldInputError('ruleWeights', {
          zh: '规则及权重须为 [{"ruleId":"规则","weight":权重}, …]',
          en: 'Rules and weights must be [{"ruleId":"…","weight":…}, …]',
        });
      const ids = new Set(weights.map((w) => w.ruleId));
      if (ids.size !== weights.length)
        throw new FieldInputError('ruleWeights', {
          zh: '规则及权重:同一规则只能出现一次',
          en: 'Rules and weights: a rule may appear only once',
        });
      const sum = weightSum(weights);
      if (sum !== 100) throw new FieldInputError('ruleWeights', weightsMessage(sum));
      const known = await projectRules(db, ctx, weights);
      if (known.length !== weights.length)
        throw new FieldInputError('ruleWeights', {
          zh: '规则及权重:含有不存在的评比规则',
          en: 'Rules and weights: a rule does not exist',
        });
      record.ruleWeights = JSON.stringify(weights);
    },
    async beforeRemove(_ctx, ids, tx) {
      const [row] = await tx
        .select({ id: evaluationProject.id })
        .from(evaluationProject)
        .where(
          and(
            inArray(evaluationProject.id, ids),
            eq(evaluationProject.projectStatus, PROJECT_STATUS.published),
          ),
        )
        .limit(1);
      if (row) throw frozen();
    },
    transitions: [publish, reopen],
  };
}

/** `evaluationProject/publish`: the project's results are frozen. */
const publish = transition({
  name: 'publish',
  codeSuffix: '_publish',
  field: 'projectStatus',
  from: [PROJECT_STATUS.draft, PROJECT_STATUS.inProgress],
  to: PROJECT_STATUS.published,
  refused: frozen,
});

/** `evaluationProject/reopen`: a published project opens again; who, when and why are recorded. */
const reopen = transition({
  name: 'reopen',
  codeSuffix: '_reopen',
  field: 'projectStatus',
  from: [PROJECT_STATUS.published],
  to: PROJECT_STATUS.inProgress,
  refused: () => new ApiError(409, 'evaluationNotPublished'),
  body: { reason: z.string().trim().min(1).max(200) },
  set: (project, body, ctx) => ({
    reopenHistory: JSON.stringify([
      ...safeArray(project.reopenHistory),
      { userId: ctx.userId, account: ctx.account, time: formatDateTime(new Date()), reason: body.reason },
    ]),
  }),
  answer: (project) => ({
    id: project.id,
    projectStatus: project.projectStatus,
    reopenHistory: safeArray(project.reopenHistory),
  }),
});

function safeArray(json: unknown): unknown[] {
  try {
    const v = JSON.parse(String(json ?? '[]'));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** the list rows' projects, refused when one of them is published */
async function refuseFrozen(db: Db, ctx: RequestContext, projectIds: unknown[]) {
  const ids = [...new Set(projectIds.filter(Boolean).map(String))];
  if (!ids.length) return;
  const [row] = await db
    .select({ id: evaluationProject.id })
    .from(evaluationProject)
    .where(
      and(
        inArray(evaluationProject.id, ids),
        eq(evaluationProject.tenantId, ctx.tenantId),
        eq(evaluationProject.projectStatus, PROJECT_STATUS.published),
      ),
    )
    .limit(1);
  if (row) throw frozen();
}

/**
 * a list row's place in its project, by standard competition ranking (as the village's score ranking):
 * 1 + the number of entries with a higher total, so ties share a place and the next skips (1, 1, 3)
 */
const l = evaluationList;
// (the outer row's columns named with their table: Drizzle leaves a lone table's columns unqualified)
const rankSql = sql<number>`(select (count(*) + 1)::int from hope_evaluation_list x
  where x.tenant_id = hope_evaluation_list.tenant_id and x.project_id = hope_evaluation_list.project_id
  and x.is_deleted = 0 and x.total_score > hope_evaluation_list.total_score)`;
/** another entry of the project has the same total: the place is shared (并列) */
const tiedSql = sql<boolean>`exists (select 1 from hope_evaluation_list x
  where x.tenant_id = hope_evaluation_list.tenant_id and x.project_id = hope_evaluation_list.project_id
  and x.is_deleted = 0 and x.total_score = hope_evaluation_list.total_score
  and x.id <> hope_evaluation_list.id)`;

function listHooks(db: Db): ResourceHooks {
  return {
    beside: { rank: rankSql, tied: tiedSql },
    toRow: (row: Row) => ({
      ...row,
      rank: row.rank === undefined ? row.rank : Number(row.rank),
      tied: row.tied === undefined ? row.tied : row.tied === true || row.tied === 't',
    }),
    async beforeWrite(ctx, record, mode, _id, original) {
      await refuseFrozen(db, ctx, [record.projectId, original?.projectId]);
      // a new entry, or one moved to another project, starts unscored
      if (mode === 'create' || (record.projectId && record.projectId !== original?.projectId)) {
        record.scores = '{}';
        record.totalScore = '0.00';
      }
    },
    async beforeRemove(ctx, ids, tx) {
      const rows = await tx
        .select({ projectId: l.projectId })
        .from(l)
        .where(and(inArray(l.id, ids), eq(l.tenantId, ctx.tenantId)));
      await refuseFrozen(
        tx,
        ctx,
        rows.map((r) => r.projectId),
      );
    },
    endpoints: [scoreEndpoint(db), listDetailEndpoint(db)],
  };
}

/** one list entry with its project's rules, its score per rule, its total and place */
async function readEntry(
  db: Db,
  m: import('../../platform/crud/binding').MountedResource,
  ctx: RequestContext,
  scope: import('drizzle-orm').SQL,
  id: string,
  lang?: 'zh' | 'en',
) {
  const [row] = await db
    .select(m.selection)
    .from(l)
    .where(and(scope, eq(l.id, id)))
    .limit(1);
  if (!row) throw notFound();
  const [out] = await m.output(ctx, [row as Row], lang);
  const project = await projectOf(db, ctx, String(row.projectId));
  if (!project) throw notFound();
  const rules = await projectRules(db, ctx, project.ruleWeights);
  const scores = safeObject(row.scores);
  return {
    ...out,
    rank: Number(out.rank ?? row.rank),
    tied: Boolean(out.tied ?? row.tied),
    projectStatus: project.projectStatus,
    rules: rules.map((r) => ({ ...r, score: scores[r.ruleId] ?? null })),
  };
}

function safeObject(json: unknown): Record<string, number> {
  try {
    const v = JSON.parse(String(json ?? '{}'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** `evaluationList/detail` (POST, spec §7): one entry with its scores per rule. */
const listDetailEndpoint = (db: Db) =>
  endpoint({
    method: 'POST',
    path: 'detail',
    codeSuffix: ['', '_view'],
    query: z.object({}).strict(),
    body: idBody,
    handler: ({ req, ctx, resource: m, scope, body }) => readEntry(db, m, ctx, scope, body.id, req.lang),
  });

/**
 * `evaluationList/score`: the scores of one entry per rule of its project, each clamped to 0 … the rule's
 * maximum; the weighted total (contracts `evaluationTotal`, as the screen previews it) is stored with them.
 * Refused while the project is published; a draft project is in progress once scored.
 */
const scoreEndpoint = (db: Db) =>
  endpoint({
    method: 'POST',
    path: 'score',
    codeSuffix: '_score',
    query: z.object({}).strict(),
    body: z
      .object({
        id: z.string().regex(/^\d{1,20}$/),
        scores: z.record(z.string().regex(/^\d{1,20}$/), z.number().finite().nullable()),
      })
      .strict(),
    async handler({ req, ctx, resource: m, scope, body }) {
      await transaction(db, async (tx) => {
        // the entry and its project read for update (within the caller's reach of each), then both written
        // through their write paths: the entry's scores and total, a draft project put in progress
        const projects = mountedResource('evaluationProject');
        await m.patch(
          ctx,
          tx,
          body.id,
          async (entry) => {
            const project = await projectOf(tx, ctx, String(entry.projectId), true);
            if (!project) throw notFound();
            if (project.projectStatus === PROJECT_STATUS.published) throw frozen();
            const rules: WeightedRule[] = await projectRules(tx, ctx, project.ruleWeights);
            const known = new Set(rules.map((r) => r.ruleId));
            const stray = Object.keys(body.scores).find((k) => !known.has(k));
            if (stray)
              throw new FieldInputError('scores', {
                zh: `各项得分:规则 ${stray} 不属于该评比项目`,
                en: `Scores per rule: rule ${stray} is not one of the project's`,
              });
            const scores: Record<string, number> = {};
            for (const r of rules)
              if (body.scores[r.ruleId] !== undefined && body.scores[r.ruleId] !== null)
                scores[r.ruleId] = clampScore(body.scores[r.ruleId], r.maxScore);
            if (project.projectStatus === PROJECT_STATUS.draft)
              await projects.patch(ctx, tx, String(project.id), { projectStatus: PROJECT_STATUS.inProgress });
            return {
              scores: JSON.stringify(scores),
              totalScore: evaluationTotal(rules, scores).toFixed(2),
            };
          },
          scope,
        );
      });
      return readEntry(db, m, ctx, scope, body.id, req.lang);
    },
  });

/** `evaluationRuleCategory/rootCategory`: the categories at the top of the tree. */
const rootCategoryEndpoint = endpoint({
  method: 'GET',
  path: 'rootCategory',
  query: z.object({}).strict(),
  async handler({ req, ctx, resource: m, scope }) {
    const c = evaluationRuleCategory;
    const rows = await m.db
      .select(m.selection)
      .from(c)
      .where(and(scope, or(isNull(c.parentId), eq(c.parentId, '0'))))
      .orderBy(asc(c.sort), asc(c.id))
      .limit(500);
    return m.output(ctx, rows as Row[], req.lang);
  },
});

/** Every evaluation resource's table and hooks, for modules/resources.ts. */
/** the projects of the tenant that weigh a rule (their weights name it), with their status */
function projectsWeighing(tx: Db, tenantId: string, ruleId: string) {
  return tx
    .select({
      id: evaluationProject.id,
      projectStatus: evaluationProject.projectStatus,
      ruleWeights: evaluationProject.ruleWeights,
    })
    .from(evaluationProject)
    .where(
      and(
        eq(evaluationProject.tenantId, tenantId),
        notDeleted(evaluationProject.isDeleted),
        sql`${evaluationProject.ruleWeights} like ${`%"ruleId":"${ruleId}"%`}`,
      ),
    );
}

/**
 * A rule's maximum is part of every total that weighs it: a rule a published project weighs keeps its
 * maximum (the results are frozen) and stays on record; a new maximum recomputes the stored totals of the
 * projects still open, so a ranking never mixes totals of two maxima.
 */
function ruleHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record, mode, id, original) {
      if (mode !== 'update' || !id || record.maxScore === undefined) return;
      if (original && Number(original.maxScore) === Number(record.maxScore)) return;
      const projects = await projectsWeighing(db, ctx.tenantId, id);
      if (projects.some((p) => p.projectStatus === PROJECT_STATUS.published)) throw frozen();
    },
    async beforeRemove(ctx, ids, tx) {
      for (const id of ids)
        if (
          (await projectsWeighing(tx, ctx.tenantId, id)).some(
            (p) => p.projectStatus === PROJECT_STATUS.published,
          )
        )
          throw frozen();
    },
    async afterChange(ctx, changes, tx) {
      for (const change of changes) {
        if (change.mode !== 'update' || change.record.maxScore === undefined) continue;
        if (change.original && Number(change.original.maxScore) === Number(change.row.maxScore)) continue;
        for (const project of await projectsWeighing(tx, ctx.tenantId, String(change.row.id))) {
          const rules = await projectRules(tx, ctx, project.ruleWeights);
          const entries = await tx
            .select({ id: l.id, scores: l.scores })
            .from(l)
            .where(and(eq(l.projectId, project.id), eq(l.tenantId, ctx.tenantId), notDeleted(l.isDeleted)));
          // the entries' totals through their write path, whoever's scope they are in (they follow the rule)
          const lists = mountedResource('evaluationList');
          const all = await lists.tenantConstraint(ctx);
          for (const entry of entries)
            await lists.patch(
              ctx,
              tx,
              String(entry.id),
              { totalScore: evaluationTotal(rules, safeObject(entry.scores)).toFixed(2) },
              all,
            );
        }
      }
    },
  };
}

export function evaluationHooks(db: Db): Record<string, ResourceHooks> {
  return {
    evaluationRuleCategory: { endpoints: [rootCategoryEndpoint] },
    evaluationRule: ruleHooks(db),
    evaluationProject: { ...projectHooks(db), ...evaluationCredits },
    evaluationList: listHooks(db),
  };
}
