import { randomUUID } from 'node:crypto';
import { checkField, userResource } from '@smart/contracts';
import { and, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../platform/access/permissions';
import { manageableUsers } from '../../platform/access/privileges';
import { requireCtx } from '../../platform/auth/context';
import { hashSecret, md5Hex } from '../../platform/auth/password';
import { forgetCounts } from '../../platform/crud/count-cache';
import { type Db, schema } from '../../platform/db';
import { type ExcelColumn, readRows, readUpload, sendXlsx } from '../../platform/excel';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, RowsInputError } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { checkAccountQuota } from '../system/tenant';
import {
  checkMemberships,
  holds,
  type Memberships,
  membershipsOf,
  rowSelection,
  userTable as u,
  userConstraint,
  userListQuery,
  userOutput,
} from './admin';

/** Users to and from Excel: export what the filters select, a template, and an all-or-nothing import. */

const COLUMNS: (ExcelColumn & { headerEn: string })[] = [
  { key: 'account', header: '登录账号', headerEn: 'Account' },
  { key: 'realName', header: '用户姓名', headerEn: 'Real name' },
  { key: 'name', header: '用户昵称', headerEn: 'Nickname' },
  { key: 'phone', header: '手机号码', headerEn: 'Phone', width: 16 },
  { key: 'email', header: '电子邮箱', headerEn: 'Email', width: 24 },
  { key: 'sexName', header: '用户性别', headerEn: 'Sex', width: 10 },
  { key: 'birthday', header: '用户生日', headerEn: 'Birthday', width: 14 },
  { key: 'roleName', header: '所属角色', headerEn: 'Roles', width: 24 },
  { key: 'deptName', header: '所属机构', headerEn: 'Departments', width: 24 },
];
const ACCOUNT_EXISTS = { zh: '登录账号已存在', en: 'Account already exists' };
const SEX: Record<string, string> = { '1': '男', '2': '女', '3': '未知' };
const SEX_KEY: Record<string, string> = { 男: '1', 女: '2', 未知: '3', male: '1', female: '2', unknown: '3' };
const BATCH = 2000;
const IMPORT_BATCH = 500;

export async function userExcelRoutes(base: FastifyInstance) {
  const { db } = base.deps;
  const headers = (lang: 'zh' | 'en') =>
    COLUMNS.map((c) => ({ ...c, header: lang === 'en' ? c.headerEn : c.header }));

  base.get('/export-user', { config: { tokenInQuery: true } }, async (req, reply) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user_export');
    const { current: _c, size: _s, ...filters } = req.query as Record<string, string>;
    const q = await userListQuery(db, ctx, filters);
    // newest first, in id batches: the export never holds more than one batch
    async function* batches() {
      let last: string | undefined;
      for (;;) {
        const where: SQL[] = [...q.where];
        if (last) where.push(lt(u.id, last));
        const rows = await db
          .select(rowSelection)
          .from(u)
          .where(and(...where))
          .orderBy(desc(u.id))
          .limit(BATCH);
        if (!rows.length) return;
        yield rows.map((r) => {
          const o = userOutput(r);
          return { ...o, sexName: SEX[String(o.sex ?? '')] ?? '' };
        });
        last = rows[rows.length - 1].id as string;
        if (rows.length < BATCH) return;
      }
    }
    return sendXlsx(reply, req.lang === 'en' ? 'users' : '用户数据', headers(req.lang), batches());
  });

  base.get('/export-template', { config: { tokenInQuery: true } }, async (req, reply) => {
    requireCtx(req);
    await requirePermission(db, req, 'user_import');
    async function* none() {}
    return sendXlsx(reply, req.lang === 'en' ? 'user-template' : '用户导入模板', headers(req.lang), none());
  });

  /**
   * Every row is checked with the form's rules first; one bad row imports nothing and the answer lists every
   * bad row. With isCovered=1 an existing account is updated instead of refused — only an account the
   * caller may change (data scope, no rights beyond the caller's), and its roles only with the
   * role-granting permission, as on the form. An account the caller may not change is reported exactly
   * like an existing one without isCovered: the file learns nothing it could not learn from the form.
   */
  base.post('/import-user', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user_import');
    const covered = (req.query as Record<string, string>).isCovered === '1';
    const rows = await readRows(await readUpload(req), COLUMNS);
    const roles = await nameIndex(db, 'role', ctx.tenantId);
    const depts = await nameIndex(db, 'dept', ctx.tenantId);
    const accounts = [...new Set(rows.map((r) => r.values.account).filter(Boolean))];
    const existing = new Map<string, string>();
    const changeable = new Set<string>();
    for (let i = 0; i < accounts.length; i += 1000) {
      const chunk = accounts.slice(i, i + 1000);
      for (const r of await db
        .select({ id: u.id, account: u.account })
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), notDeleted(u.isDeleted), inArray(u.account, chunk))))
        existing.set(r.account, r.id);
      // the same constraint as the form's: what the caller may see, and may act on
      const inScope = await db
        .select({ id: u.id })
        .from(u)
        .where(and(await userConstraint(db, ctx), inArray(u.account, chunk)));
      for (const id of await manageableUsers(
        db,
        ctx,
        inScope.map((r) => r.id),
      ))
        changeable.add(id);
    }
    const current = covered ? await membershipsOf(db, [...changeable]) : new Map<string, Memberships>();
    const mayGrantRoles = await holds(db, ctx, 'user_role');
    const errors: ConstructorParameters<typeof RowsInputError>[0] = [];
    const seen = new Set<string>();
    const valid: { values: Record<string, unknown>; roleIds: string[]; deptIds: string[]; id?: string }[] =
      [];
    for (const { line, values } of rows) {
      const fail = (field: string, message: { zh: string; en: string }) =>
        errors.push({ row: line, field, message });
      const record: Record<string, unknown> = {};
      let bad = false;
      for (const f of userResource.fields) {
        if (!['account', 'realName', 'name', 'phone', 'email', 'birthday'].includes(f.name)) continue;
        const err = checkField(f, values[f.name]);
        if (err) {
          fail(f.name, err);
          bad = true;
        } else record[f.name] = values[f.name] || null;
      }
      const account = values.account ?? '';
      if (account && seen.has(account)) {
        fail('account', { zh: '文件中账号重复', en: 'The account appears twice in the file' });
        bad = true;
      }
      seen.add(account);
      const found = existing.get(account);
      const id = found && covered && changeable.has(found) ? found : undefined;
      if (found && !id) {
        fail('account', ACCOUNT_EXISTS);
        bad = true;
      }
      const sex = values.sexName ? SEX_KEY[values.sexName.toLowerCase()] : undefined;
      if (values.sexName && !sex) {
        fail('sexName', { zh: '性别只能是 男/女/未知', en: 'Sex must be male, female or unknown' });
        bad = true;
      }
      const lookup = (
        text: string | undefined,
        index: Map<string, string>,
        field: string,
        what: { zh: string; en: string },
      ) => {
        const names = (text ?? '')
          .split(/[,，]/)
          .map((s) => s.trim())
          .filter(Boolean);
        if (!names.length) {
          fail(field, { zh: `请填写${what.zh}`, en: `please fill in ${what.en}` });
          bad = true;
        }
        const ids = names.map((n) => index.get(n));
        const missing = names.filter((_, i) => !ids[i]);
        if (missing.length) {
          fail(field, {
            zh: `${what.zh}不存在: ${missing.join(',')}`,
            en: `No such ${what.en}: ${missing.join(',')}`,
          });
          bad = true;
        }
        return ids.filter((x): x is string => !!x);
      };
      const roleIds = lookup(values.roleName, roles, 'roleName', { zh: '所属角色', en: 'role' });
      const deptIds = lookup(values.deptName, depts, 'deptName', { zh: '所属机构', en: 'department' });
      if (!bad) {
        try {
          await checkMemberships(db, ctx, {
            userId: id,
            roleIds,
            deptIds,
            mayGrantRoles,
            current: id ? current.get(id) : undefined,
          });
        } catch (e) {
          if (!(e instanceof FieldInputError)) throw e;
          fail(e.field === 'deptId' ? 'deptName' : 'roleName', e.text);
          bad = true;
        }
      }
      if (!bad) valid.push({ values: { ...record, sex: sex ? Number(sex) : null }, roleIds, deptIds, id });
    }
    if (errors.length) throw new RowsInputError(errors);
    // new accounts get a random password nobody knows: the administrator issues one with 重置密码
    // (shown once) when the person needs it. No account ever starts with a default anyone can guess.
    const initial = await hashSecret(md5Hex(randomUUID()));
    const tz = process.env.TZ || 'Asia/Shanghai';
    // all rows in one transaction, written in batches: a few statements per 500 rows, not several per row
    const updates = valid.filter((r) => r.id);
    const inserts = valid.filter((r) => !r.id);
    const fieldsOf = (v: Record<string, unknown>) => ({
      realName: v.realName as string,
      name: v.name as string | null,
      phone: v.phone as string | null,
      email: v.email as string | null,
      sex: v.sex as number | null,
      birthday: v.birthday ? (sql`(${v.birthday as string}::timestamp at time zone ${tz})` as never) : null,
      updateUser: ctx.userId,
      updateTime: new Date(),
    });
    const scope = await userConstraint(db, ctx);
    await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      if (inserts.length) await checkAccountQuota(tx, ctx.tenantId, inserts.length);
      for (const row of updates)
        await tx
          .update(u)
          .set(fieldsOf(row.values))
          .where(and(eq(u.id, row.id!), scope));
      for (let i = 0; i < inserts.length; i += IMPORT_BATCH) {
        const chunk = inserts.slice(i, i + IMPORT_BATCH);
        const ids = await tx
          .insert(u)
          .values(
            chunk.map((row) => ({
              ...fieldsOf(row.values),
              tenantId: ctx.tenantId,
              account: row.values.account as string,
              password: initial,
              mustChangePassword: true,
              createUser: ctx.userId,
              createDept: ctx.deptId || null,
            })),
          )
          .returning({ id: u.id });
        chunk.forEach((row, j) => {
          row.id = ids[j].id;
        });
      }
      for (let i = 0; i < valid.length; i += IMPORT_BATCH) {
        const chunk = valid.slice(i, i + IMPORT_BATCH);
        const userIds = chunk.map((r) => r.id!);
        await tx.delete(schema.userRole).where(inArray(schema.userRole.userId, userIds));
        await tx.delete(schema.userDept).where(inArray(schema.userDept.userId, userIds));
        await tx
          .insert(schema.userRole)
          .values(chunk.flatMap((r) => r.roleIds.map((roleId) => ({ userId: r.id!, roleId }))));
        await tx
          .insert(schema.userDept)
          .values(chunk.flatMap((r) => r.deptIds.map((deptId) => ({ userId: r.id!, deptId }))));
      }
    });
    const created = inserts.length;
    const updated = updates.length;
    forgetCounts('user');
    return ok(req, { created, updated, total: valid.length });
  });
}

/** Role or dept names of a tenant → ids (the file names them as people read them). */
async function nameIndex(db: Db, table: 'role' | 'dept', tenantId: string) {
  const t = schema[table];
  const nameCol = table === 'role' ? schema.role.roleName : schema.dept.deptName;
  const rows = await db
    .select({ id: t.id, name: nameCol })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), notDeleted(t.isDeleted), inArray(t.isDeleted, [0])));
  return new Map(rows.map((r) => [r.name, r.id]));
}
