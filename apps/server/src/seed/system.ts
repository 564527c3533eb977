import { SYSTEM_DICTS, WEB_CLIENT_ID, WEB_CLIENT_SECRET } from '@smart/contracts';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { hashSecret, md5Hex } from '../platform/auth/password';
import { type Db, schema } from '../platform/db';
import { entryRows } from './dicts';

/** Fixed ids keep the seed stable across restarts and machines (BladeX's well-known ids where it has them). */
export const SEED = {
  tenantRowId: '1123598822738675201',
  adminUserId: '1123598821738675201',
  adminRoleId: '1123598816738675201',
  userRoleId: '1123598816738675202',
  rootDeptId: '1123598813738675201',
} as const;

export { md5Hex };

const depts = [
  {
    id: SEED.rootDeptId,
    parentId: '0',
    ancestors: '0',
    deptName: '智慧乡村',
    fullName: '智慧乡村运营中心',
    sort: 1,
  },
  { id: '1123598813738675202', parentId: SEED.rootDeptId, deptName: '技术部', fullName: '技术部', sort: 1 },
  { id: '1123598813738675203', parentId: SEED.rootDeptId, deptName: '运营部', fullName: '运营部', sort: 2 },
  { id: '1123598813738675204', parentId: SEED.rootDeptId, deptName: '财务部', fullName: '财务部', sort: 3 },
  {
    id: '1123598813738675205',
    parentId: '1123598813738675203',
    deptName: '村务组',
    fullName: '运营部村务组',
    sort: 1,
  },
];

const posts = [
  { id: '1123598817738675201', category: 1, postCode: 'ceo', postName: '首席执行官', sort: 1 },
  { id: '1123598817738675202', category: 1, postCode: 'coo', postName: '首席运营官', sort: 2 },
  { id: '1123598817738675203', category: 2, postCode: 'manager', postName: '经理', sort: 3 },
  { id: '1123598817738675204', category: 3, postCode: 'staff', postName: '职员', sort: 4 },
];

const params: [name: string, key: string, value: string, remark: string][] = [
  ['账号错误锁定次数', 'account.failCount', '5', '同一地址连续登录失败达到此次数后锁定30分钟'],
  ['租户默认账号额度', 'tenant.default.accountNumber', '-1', '-1 表示不限制'],
];

/** Tenant, roles, depts, posts, the administrator, dictionaries, parameters and the web client. */
export async function seedSystem(db: Db) {
  await db.insert(schema.tenant).values({
    id: SEED.tenantRowId,
    tenantId: '000000',
    tenantName: '管理组',
    linkman: 'admin',
    contactNumber: '666666',
    address: '管理组',
  });
  await db.insert(schema.role).values([
    {
      id: SEED.adminRoleId,
      roleName: '超级管理员',
      nameEn: 'Super administrator',
      roleAlias: 'administrator',
      sort: 1,
    },
    { id: SEED.userRoleId, roleName: '普通用户', nameEn: 'Ordinary user', roleAlias: 'user', sort: 2 },
  ]);
  await db.insert(schema.dept).values(
    depts.map((d) => ({
      ...d,
      ancestors:
        d.ancestors ??
        (d.parentId === SEED.rootDeptId ? `0,${SEED.rootDeptId}` : `0,${SEED.rootDeptId},${d.parentId}`),
    })),
  );
  await db.insert(schema.post).values(posts);
  await db.insert(schema.user).values({
    id: SEED.adminUserId,
    account: 'admin',
    password: await hashSecret(md5Hex('admin')),
    name: '管理员',
    realName: '管理员',
    email: 'admin@example.com',
    phone: '13800000000',
    sex: 1,
    postId: posts[0].id,
    mustChangePassword: true,
  });
  await db.insert(schema.userRole).values({ userId: SEED.adminUserId, roleId: SEED.adminRoleId });
  await db.insert(schema.userDept).values({ userId: SEED.adminUserId, deptId: SEED.rootDeptId });

  let n = 0;
  const dictId = () => String(1123598814738675201n + BigInt(n++));
  // declared in @smart/contracts (dicts.ts) with their values in both languages
  for (const { code, label, items } of SYSTEM_DICTS) {
    const parentId = dictId();
    await db
      .insert(schema.dict)
      .values({ id: parentId, parentId: '0', code, dictValue: label.zh, dictValueEn: label.en, sort: n });
    await db
      .insert(schema.dict)
      .values(entryRows(code, items, parentId).map((r) => ({ id: dictId(), ...r })));
  }
  await db.insert(schema.param).values(
    params.map(([paramName, paramKey, paramValue, remark]) => ({
      paramName,
      paramKey,
      paramValue,
      remark,
    })),
  );
  await db.insert(schema.client).values({
    clientId: WEB_CLIENT_ID,
    clientSecret: await hashSecret(WEB_CLIENT_SECRET),
    authorizedGrantTypes: 'refresh_token,password,captcha',
    accessTokenValidity: 3600,
    refreshTokenValidity: 604800,
    webServerRedirectUri: WEB_CLIENT_REDIRECT_URI,
  });
}

/** The seeded client's redirect URI (the family's client requires one to save a client): its dev server. */
export const WEB_CLIENT_REDIRECT_URI = 'http://localhost:1888';

/** Installs seeded before the client had a redirect URI get it (one someone set is kept). */
export async function seedClientRedirect(db: Db) {
  await db
    .update(schema.client)
    .set({ webServerRedirectUri: WEB_CLIENT_REDIRECT_URI })
    .where(and(eq(schema.client.clientId, WEB_CLIENT_ID), isNull(schema.client.webServerRedirectUri)));
}

/**
 * Initial passwords are generated and shown once (new tenant administrators, resets): the parameters that
 * held a default everyone could guess are gone from installs seeded before.
 */
export async function dropDefaultPasswordParams(db: Db) {
  await db
    .update(schema.param)
    .set({ isDeleted: 1, updateTime: new Date() })
    .where(inArray(schema.param.paramKey, ['account.initPassword', 'tenant.default.password']));
}
