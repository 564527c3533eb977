import { randomUUID } from 'node:crypto';
import type { LoginResult } from '@smart/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app';
import { burnVerify, MD5_HEX, verifySecret } from '../../platform/auth/password';
import type { VerifiedToken } from '../../platform/auth/tokens';
import { type Db, schema } from '../../platform/db';
import { OAuthError } from '../../platform/http/errors';
import type { KvStore } from '../../platform/kv';
import { notDeleted } from '../../platform/sql';
import { paramNumber } from '../system/params';
import type { Client } from './clients';

export const LOCK_MINUTES = 30;
/**
 * Guessing is limited three times, counted in the shared store (so parallel guesses and several instances
 * cannot slip past a limit):
 * - per account and address, before any password is checked: after `account.failCount` failures that
 *   address is locked out of that account for 30 minutes (an administrator's unlock lifts it at once).
 *   Counting per address means nobody can lock another person out of their account from somewhere else;
 * - per address, over every account: past a number of failures the address must wait, doubling with
 *   each further failure (credential spraying, or locking many accounts from one place);
 * - per account, over every address (guesses spread over many addresses): past a number of failures an
 *   address must wait before trying that account, doubling with each further failure — unless it is one of
 *   the account's known addresses (where it signed in before), so the owner is never held back there.
 * A solved captcha buys nothing against any of them: it is the family's form, not the brake.
 */
/** per address over every account: 30 failures in 15 minutes free, then 2, 4, 8 … seconds */
const ADDRESS_LIMITS = { free: 30, windowSeconds: 15 * 60, first: 2 };
/**
 * per account over every address: 20 failures in an hour free, then 30 s, 1, 2, 4 … minutes for every address
 * but the account's known ones (fewer, longer waits: one attempt per wait is all a guesser gets anywhere)
 */
const ACCOUNT_LIMITS = { free: 20, windowSeconds: 60 * 60, first: 30 };
const MAX_WAIT_SECONDS = 15 * 60;
/** how long an address stays known to an account after a successful sign-in from it */
const KNOWN_ADDRESS_SECONDS = 90 * 24 * 3600;
/** an administrator's unlock starts a new generation of an account's failure counters */
const generationKey = (tenantId: string, account: string) =>
  `signin-generation:${tenantId}:${account.toLowerCase()}`;
const addressFailuresKey = (address: string) => `signin-address-failures:${address}`;
const addressWaitKey = (address: string) => `signin-address-wait:${address}`;

/** The keys of one account's counters in its current generation. */
async function accountKeys(kv: KvStore, tenantId: string, account: string, address: string) {
  const generation = (await kv.get(generationKey(tenantId, account))) ?? '0';
  const who = `${tenantId}:${account.toLowerCase()}`;
  return {
    failures: `signin-failures:${who}:${generation}:${address}`,
    accountFailures: `signin-account-failures:${who}:${generation}`,
    accountWait: `signin-account-wait:${who}:${generation}`,
    known: `signin-known:${who}:${address}`,
  };
}

/** Lifts the sign-in locks and waits of these accounts, from every address. */
export async function unlockAccounts(kv: KvStore, tenantId: string, accounts: string[]) {
  for (const account of accounts) await kv.incr(generationKey(tenantId, account), 24 * 3600);
}

/**
 * Past `free` failures counted under `counter`, the next attempt waits `first` seconds (`waitKey`), doubling
 * with each further failure, at most 15 minutes.
 */
async function noteFailure(
  kv: KvStore,
  counter: string,
  waitKey: string,
  limits: { free: number; windowSeconds: number; first: number },
) {
  const n = await kv.incr(counter, limits.windowSeconds);
  if (n <= limits.free) return;
  const wait = Math.min(limits.first * 2 ** Math.min(n - limits.free - 1, 20), MAX_WAIT_SECONDS);
  await kv.set(waitKey, String(Date.now() + wait * 1000), wait);
}

function checkWait(until: number) {
  if (until > Date.now())
    throw new OAuthError(429, 'signInThrottled', { seconds: Math.ceil((until - Date.now()) / 1000) });
}

type UserRow = typeof schema.user.$inferSelect;

export async function findTenant(db: Db, tenantId: string) {
  const [row] = await db
    .select()
    .from(schema.tenant)
    .where(and(eq(schema.tenant.tenantId, tenantId), notDeleted(schema.tenant.isDeleted)))
    .limit(1);
  return row;
}

/** A tenant that may sign in: live, enabled and not expired. */
function checkTenant(tenant: Awaited<ReturnType<typeof findTenant>>) {
  if (tenant?.status !== 1) throw new OAuthError(400, 'tenantNotFound');
  if (tenant.expireTime && tenant.expireTime.getTime() < Date.now())
    throw new OAuthError(400, 'tenantExpired');
  return tenant;
}

/** The roles and depts a user holds, in a stable order (the first is the default when none is chosen). */
export async function userMemberships(db: Db, userId: string) {
  const roles = await db
    .select({ id: schema.role.id, roleName: schema.role.roleName, roleAlias: schema.role.roleAlias })
    .from(schema.userRole)
    .innerJoin(schema.role, eq(schema.role.id, schema.userRole.roleId))
    .where(and(eq(schema.userRole.userId, userId), notDeleted(schema.role.isDeleted)))
    .orderBy(asc(schema.role.sort), asc(schema.role.id));
  const depts = await db
    .select({ id: schema.dept.id, deptName: schema.dept.deptName })
    .from(schema.userDept)
    .innerJoin(schema.dept, eq(schema.dept.id, schema.userDept.deptId))
    .where(and(eq(schema.userDept.userId, userId), notDeleted(schema.dept.isDeleted)))
    .orderBy(asc(schema.dept.sort), asc(schema.dept.id));
  return { roles, depts };
}

/**
 * Password and captcha grants: throttles, credentials, then tenant and account state, then the token pair.
 * An unknown tenant, an unknown account and a wrong password answer alike (same message, same work):
 * only someone who knows the password learns anything about the tenant or the account.
 */
export async function signInWithPassword(
  deps: AppDeps,
  client: Client,
  input: {
    tenantId: string;
    username: string;
    password: string;
    address: string;
    deptId?: string;
    roleId?: string;
    /** the sign-in path asked on: 'family' for the family's (`/token`) */
    contract?: 'family';
  },
): Promise<LoginResult> {
  const { db, kv } = deps;
  const { tenantId, address } = input;
  const keys = await accountKeys(kv, tenantId, input.username, address);
  const [addressWait, accountWait, known] = await kv.getMany([
    addressWaitKey(address),
    keys.accountWait,
    keys.known,
  ]);
  checkWait(Number(addressWait ?? 0));
  // guesses at this account from many addresses hold back every address but those it signed in from
  if (!known) checkWait(Number(accountWait ?? 0));
  const maxFailures = await paramNumber(db, 'account.failCount', 5);
  // counted before the password is checked: of many parallel guesses, only the first maxFailures are
  if ((await kv.incr(keys.failures, LOCK_MINUTES * 60)) > maxFailures)
    throw new OAuthError(400, 'accountLocked', { minutes: LOCK_MINUTES });

  const tenant = await findTenant(db, tenantId);
  const [user] = tenant
    ? await db
        .select()
        .from(schema.user)
        .where(
          and(
            eq(schema.user.tenantId, tenantId),
            eq(schema.user.account, input.username),
            notDeleted(schema.user.isDeleted),
          ),
        )
        .limit(1)
    : [];
  const valid =
    MD5_HEX.test(input.password) &&
    (user ? await verifySecret(user.password, input.password) : await burnVerify(input.password));
  if (!user || !valid) {
    await noteFailure(kv, addressFailuresKey(address), addressWaitKey(address), ADDRESS_LIMITS);
    await noteFailure(kv, keys.accountFailures, keys.accountWait, ACCOUNT_LIMITS);
    throw new OAuthError(400, 'badCredentials');
  }
  await kv.del(keys.failures);
  // the right password from here: this address is the owner's from now on (the account-wide wait spares it)
  await kv.set(keys.known, '1', KNOWN_ADDRESS_SECONDS);
  checkTenant(tenant);
  if (user.status === 0) throw new OAuthError(400, 'accountPending');
  if (user.status !== 1) throw new OAuthError(400, 'accountDisabled');
  return issueTokens(deps, client, user, {
    deptId: input.deptId,
    roleId: input.roleId,
    contract: input.contract,
  });
}

/** Refresh grant with rotation: a refresh token works once; presenting a used one ends its whole family. */
export async function signInWithRefresh(
  deps: AppDeps,
  client: Client,
  input: { refreshToken: string; deptId?: string; roleId?: string; contract?: 'family' },
): Promise<LoginResult> {
  const { db, tokens } = deps;
  const token = await tokens.verify(input.refreshToken, 'refresh');
  if (!token || token.cid !== client.clientId) throw new OAuthError(400, 'refreshInvalid');
  if (!(await tokens.markRefreshUsed(token))) {
    await tokens.revokeFamily(token.fid, client.refreshTokenValidity);
    throw new OAuthError(400, 'refreshInvalid');
  }
  checkTenant(await findTenant(db, token.tid));
  const [user] = await db
    .select()
    .from(schema.user)
    .where(and(eq(schema.user.id, token.uid), notDeleted(schema.user.isDeleted), eq(schema.user.status, 1)))
    .limit(1);
  if (!user) throw new OAuthError(400, 'refreshInvalid');
  return issueTokens(deps, client, user, {
    deptId: input.deptId ?? token.did,
    roleId: input.roleId ?? (token.rid.includes(',') ? undefined : token.rid),
    family: token,
    contract: input.contract,
  });
}

async function issueTokens(
  deps: AppDeps,
  client: Client,
  user: UserRow,
  choice: { deptId?: string; roleId?: string; family?: VerifiedToken; contract?: 'family' },
): Promise<LoginResult> {
  const { roles, depts } = await userMemberships(deps.db, user.id);
  // Dept-Id / Role-Id narrow the token only to one of the user's own depts and roles
  const role = choice.roleId ? roles.find((r) => r.id === choice.roleId) : undefined;
  if (choice.roleId && !role) throw new OAuthError(400, 'roleNotOwned');
  const dept = choice.deptId ? depts.find((d) => d.id === choice.deptId) : depts[0];
  if (choice.deptId && !dept) throw new OAuthError(400, 'deptNotOwned');
  const chosenRoles = role ? [role] : roles;
  const claims = {
    tid: user.tenantId,
    uid: user.id,
    did: dept?.id ?? '',
    rid: chosenRoles.map((r) => r.id).join(','),
    acc: user.account,
    cid: client.clientId,
    fid: choice.family?.fid ?? randomUUID(),
    sv: user.sessionVersion,
    ...(choice.contract ? { ctr: choice.contract } : {}),
  };
  const [accessToken, refreshToken] = await Promise.all([
    deps.tokens.sign({ ...claims, typ: 'access' }, client.accessTokenValidity),
    deps.tokens.sign({ ...claims, typ: 'refresh' }, client.refreshTokenValidity),
  ]);
  return {
    access_token: accessToken,
    token_type: 'bearer',
    refresh_token: refreshToken,
    expires_in: client.accessTokenValidity,
    tenant_id: user.tenantId,
    user_id: user.id,
    dept_id: claims.did,
    post_id: user.postId ?? '',
    role_id: claims.rid,
    account: user.account,
    user_name: user.account,
    nick_name: user.name ?? user.account,
    real_name: user.realName ?? '',
    role_name: chosenRoles.map((r) => r.roleAlias).join(','),
    avatar: user.avatar ?? '',
    client_id: client.clientId,
    license: 'powered by smart-admin',
    password_change_required: user.mustChangePassword,
  };
}

/** The roles' names in `lang` (a role's English name where it has one). */
export async function roleNames(db: Db, roleIds: string[], lang: 'zh' | 'en' = 'zh') {
  if (!roleIds.length) return [];
  const r = schema.role;
  return db
    .select({
      id: r.id,
      roleName: lang === 'en' ? sql<string>`coalesce(${r.nameEn}, ${r.roleName})` : r.roleName,
      roleAlias: r.roleAlias,
    })
    .from(schema.role)
    .where(and(inArray(schema.role.id, roleIds), notDeleted(schema.role.isDeleted)));
}
