import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { baseColumns, id, idRef, idSequence, tenantColumn } from './columns';

export { idSequence };

const sqlNotDeleted = () => sql`is_deleted = 0`;

export const tenant = pgTable(
  'blade_tenant',
  {
    id: id(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    tenantName: varchar('tenant_name', { length: 50 }).notNull(),
    domain: varchar('domain', { length: 255 }),
    backgroundUrl: varchar('background_url', { length: 1000 }),
    linkman: varchar('linkman', { length: 20 }),
    contactNumber: varchar('contact_number', { length: 20 }),
    address: varchar('address', { length: 255 }),
    /** -1 = unlimited */
    accountNumber: integer('account_number').notNull().default(-1),
    expireTime: timestamp('expire_time', { withTimezone: true }),
    packageId: idRef('package_id'),
    datasourceId: idRef('datasource_id'),
    ...baseColumns(),
  },
  (t) => [uniqueIndex('blade_tenant_tenant_id_uq').on(t.tenantId)],
);

export const user = pgTable(
  'blade_user',
  {
    id: id(),
    tenantId: tenantColumn(),
    code: varchar('code', { length: 12 }),
    userType: integer('user_type').notNull().default(1),
    account: varchar('account', { length: 45 }).notNull(),
    /** argon2id of the md5 hex the browser sends; never leaves the server */
    password: varchar('password', { length: 255 }).notNull(),
    name: varchar('name', { length: 20 }),
    realName: varchar('real_name', { length: 10 }),
    avatar: varchar('avatar', { length: 500 }),
    email: varchar('email', { length: 45 }),
    phone: varchar('phone', { length: 45 }),
    birthday: timestamp('birthday', { withTimezone: true }),
    sex: integer('sex'),
    postId: varchar('post_id', { length: 1000 }),
    /** platform settings of update-platform: user type and a free extension text */
    userExt: varchar('user_ext', { length: 2000 }),
    /** set for the seeded and reset default passwords: the console asks for a new one */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /**
     * Sessions: a token carries the version current when it was issued; raising the version (password
     * changed or reset, account removed or disabled) ends every older session. `sessionKeepFamily` is the
     * one sign-in kept across the raise: the person who changed their own password stays signed in there.
     */
    sessionVersion: integer('session_version').notNull().default(0),
    sessionKeepFamily: varchar('session_keep_family', { length: 64 }),
    ...baseColumns(),
  },
  (t) => [
    uniqueIndex('blade_user_account_uq').on(t.tenantId, t.account).where(sqlNotDeleted()),
    // the users page: newest first within a tenant
    // DESC NULLS FIRST matches ORDER BY … DESC, so the page reads the index in order instead of sorting
    index('blade_user_page_idx')
      .on(t.tenantId, t.createTime.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sqlNotDeleted()),
    // data scopes narrow users by who created them (own rows, own dept and below)
    index('blade_user_scope_dept_idx')
      .on(t.tenantId, t.createDept, t.createTime.desc().nullsFirst())
      .where(sqlNotDeleted()),
    index('blade_user_scope_user_idx')
      .on(t.tenantId, t.createUser, t.createTime.desc().nullsFirst())
      .where(sqlNotDeleted()),
  ],
);

export const role = pgTable(
  'blade_role',
  {
    id: id(),
    tenantId: tenantColumn(),
    parentId: idRef('parent_id').notNull().default('0'),
    roleName: varchar('role_name', { length: 255 }).notNull(),
    /** the role's name in English (seeded roles carry one; the console shows it in English mode) */
    nameEn: varchar('name_en', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    roleAlias: varchar('role_alias', { length: 255 }).notNull(),
    ...baseColumns(),
  },
  (t) => [index('blade_role_tenant_idx').on(t.tenantId)],
);

export const dept = pgTable(
  'blade_dept',
  {
    id: id(),
    tenantId: tenantColumn(),
    parentId: idRef('parent_id').notNull().default('0'),
    /** comma list of ancestor ids from the root, used for "own dept and below" */
    ancestors: varchar('ancestors', { length: 2000 }).notNull().default('0'),
    deptCategory: integer('dept_category').notNull().default(1),
    deptName: varchar('dept_name', { length: 45 }).notNull(),
    fullName: varchar('full_name', { length: 45 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
    ...baseColumns(),
  },
  (t) => [index('blade_dept_tenant_idx').on(t.tenantId)],
);

export const post = pgTable('blade_post', {
  id: id(),
  tenantId: tenantColumn(),
  category: integer('category').notNull().default(1),
  postCode: varchar('post_code', { length: 12 }).notNull(),
  postName: varchar('post_name', { length: 64 }).notNull(),
  sort: integer('sort').notNull().default(0),
  remark: varchar('remark', { length: 255 }),
  ...baseColumns(),
});

export const userRole = pgTable(
  'blade_user_role',
  { userId: idRef('user_id').notNull(), roleId: idRef('role_id').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('blade_user_role_role_idx').on(t.roleId)],
);

export const userDept = pgTable(
  'blade_user_dept',
  { userId: idRef('user_id').notNull(), deptId: idRef('dept_id').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.deptId] }), index('blade_user_dept_dept_idx').on(t.deptId)],
);

export const menu = pgTable('blade_menu', {
  id: id(),
  parentId: idRef('parent_id').notNull().default('0'),
  code: varchar('code', { length: 255 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  /** the English name (the console shows it when the user's language is English) */
  nameEn: varchar('name_en', { length: 255 }),
  alias: varchar('alias', { length: 255 }).notNull().default('menu'),
  path: varchar('path', { length: 255 }).notNull().default(''),
  source: varchar('source', { length: 255 }).notNull().default(''),
  sort: integer('sort').notNull().default(0),
  /** 1 menu, 2 button */
  category: integer('category').notNull().default(1),
  /** 0 toolbar, 1 row, 2 both */
  action: integer('action').notNull().default(0),
  /** 1 opens in the console, 2 opens a new window */
  isOpen: integer('is_open').notNull().default(1),
  keepAlive: boolean('keep_alive').notNull().default(true),
  remark: varchar('remark', { length: 255 }),
  ...baseColumns(),
});

export const roleMenu = pgTable(
  'blade_role_menu',
  { roleId: idRef('role_id').notNull(), menuId: idRef('menu_id').notNull() },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

export const topMenu = pgTable('blade_top_menu', {
  id: id(),
  tenantId: tenantColumn(),
  code: varchar('code', { length: 255 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  source: varchar('source', { length: 255 }).notNull().default(''),
  sort: integer('sort').notNull().default(0),
  ...baseColumns(),
});

export const topMenuSetting = pgTable(
  'blade_top_menu_setting',
  { topMenuId: idRef('top_menu_id').notNull(), menuId: idRef('menu_id').notNull() },
  (t) => [primaryKey({ columns: [t.topMenuId, t.menuId] })],
);

/** Platform dictionaries (shared by all tenants); parent rows (parentId 0) name a dictionary by code. */
export const dict = pgTable(
  'blade_dict',
  {
    id: id(),
    parentId: idRef('parent_id').notNull().default('0'),
    code: varchar('code', { length: 255 }).notNull(),
    dictKey: varchar('dict_key', { length: 255 }).notNull().default('-1'),
    dictValue: varchar('dict_value', { length: 255 }).notNull(),
    /** the value in English (null: the Chinese value is shown in every language) */
    dictValueEn: varchar('dict_value_en', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
    isSealed: integer('is_sealed').notNull().default(0),
    ...baseColumns(),
  },
  (t) => [index('blade_dict_code_idx').on(t.code)],
);

/** The tenant's own business dictionaries. */
export const dictBiz = pgTable(
  'blade_dict_biz',
  {
    id: id(),
    tenantId: tenantColumn(),
    parentId: idRef('parent_id').notNull().default('0'),
    code: varchar('code', { length: 255 }).notNull(),
    dictKey: varchar('dict_key', { length: 255 }).notNull().default('-1'),
    dictValue: varchar('dict_value', { length: 255 }).notNull(),
    /** the value in English (null: the Chinese value is shown in every language) */
    dictValueEn: varchar('dict_value_en', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
    isSealed: integer('is_sealed').notNull().default(0),
    ...baseColumns(),
  },
  (t) => [index('blade_dict_biz_code_idx').on(t.tenantId, t.code)],
);

export const param = pgTable(
  'blade_param',
  {
    id: id(),
    paramName: varchar('param_name', { length: 255 }).notNull(),
    paramKey: varchar('param_key', { length: 255 }).notNull(),
    paramValue: text('param_value').notNull(),
    remark: varchar('remark', { length: 255 }),
    ...baseColumns(),
  },
  (t) => [uniqueIndex('blade_param_key_uq').on(t.paramKey).where(sqlNotDeleted())],
);

export const client = pgTable(
  'blade_client',
  {
    id: id(),
    clientId: varchar('client_id', { length: 48 }).notNull(),
    /** argon2id hash; the plain secret is never stored */
    clientSecret: varchar('client_secret', { length: 255 }).notNull(),
    resourceIds: varchar('resource_ids', { length: 255 }),
    scope: varchar('scope', { length: 255 }).notNull().default('all'),
    authorizedGrantTypes: varchar('authorized_grant_types', { length: 255 }).notNull(),
    webServerRedirectUri: varchar('web_server_redirect_uri', { length: 255 }),
    authorities: varchar('authorities', { length: 255 }),
    accessTokenValidity: integer('access_token_validity').notNull().default(3600),
    refreshTokenValidity: integer('refresh_token_validity').notNull().default(604800),
    additionalInformation: varchar('additional_information', { length: 4096 }),
    autoapprove: varchar('autoapprove', { length: 255 }),
    ...baseColumns(),
  },
  (t) => [uniqueIndex('blade_client_client_id_uq').on(t.clientId).where(sqlNotDeleted())],
);

/** Named seed steps already applied, so a restart seeds nothing twice. */
export const seedLog = pgTable('app_seed_log', {
  name: varchar('name', { length: 100 }).primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who this database is: one row (`name` 'deployment') with a random id written at its first start. Every
 * server on this database reads the same id, however its settings spell the database's address, and
 * derives its namespace in the shared store from it (platform/kv.ts `kvPrefixOf`).
 */
export const identity = pgTable('app_identity', {
  name: varchar('name', { length: 32 }).primaryKey(),
  value: varchar('value', { length: 64 }).notNull(),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-outs (and refresh-token replays) that ended a token family, kept until its last token expires: the
 * shared store answers every request, this table brings them back into a store that lost them (a server
 * without Redis restarted, a Redis emptied) at the next start, and to the other instances of a deployment
 * on PostgreSQL without Redis within seconds (platform/auth/tokens.ts).
 */
export const signedOut = pgTable(
  'app_signed_out',
  {
    family: varchar('family', { length: 64 }).primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** when it was written: instances without a shared store follow the new rows */
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('app_signed_out_expires_idx').on(t.expiresAt),
    index('app_signed_out_create_idx').on(t.createTime),
  ],
);

/**
 * The outbox's jobs (platform/outbox.ts): written in a business transaction, run after its commit; claimed
 * for a lease, tried again after a failure, given up (`due_at` null) keeping the last error.
 */
export const outbox = pgTable(
  'app_outbox',
  {
    id: id(),
    tenantId: tenantColumn(),
    /** the handler's name (registerJob) */
    kind: varchar('kind', { length: 64 }).notNull(),
    /** what the handler is given (JSON) */
    payload: text('payload').notNull(),
    /** when it may run: now when written, its lease's end while it runs, its retry's time after a failure */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** failed attempts so far */
    attempts: integer('attempts').notNull().default(0),
    lastError: varchar('last_error', { length: 255 }),
    /** the run that holds its lease */
    claimedBy: varchar('claimed_by', { length: 64 }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('app_outbox_due_idx').on(t.kind, t.dueAt).where(sql`done_at is null`)],
);

export const tenantPackage = pgTable('blade_tenant_package', {
  id: id(),
  packageName: varchar('package_name', { length: 50 }).notNull(),
  /** comma-joined menu ids (spec §3) */
  menuId: text('menu_id').notNull().default(''),
  remark: varchar('remark', { length: 255 }),
  ...baseColumns(),
});

export const notice = pgTable(
  'blade_notice',
  {
    id: id(),
    tenantId: tenantColumn(),
    title: varchar('title', { length: 255 }).notNull(),
    category: varchar('category', { length: 32 }).notNull(),
    releaseTime: timestamp('release_time', { withTimezone: true }),
    content: text('content'),
    ...baseColumns(),
  },
  (t) => [
    index('blade_notice_tenant_idx').on(t.tenantId, t.createTime),
    // the home's latest notices, and those released since the previous sign-in (desk/home.ts)
    index('blade_notice_released_idx')
      .on(t.tenantId, t.releaseTime.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`is_deleted = 0`),
  ],
);

/** Data scopes: which rows of a resource a role sees (api-contract §Menus and permissions). */
export const scopeData = pgTable('blade_scope_data', {
  id: id(),
  menuId: idRef('menu_id').notNull(),
  resourceCode: varchar('resource_code', { length: 255 }).notNull(),
  scopeName: varchar('scope_name', { length: 255 }).notNull(),
  /** 1 all, 2 own rows, 3 own dept, 4 own dept and below, 5 custom */
  scopeType: integer('scope_type').notNull(),
  /** type 5 only: a JSON condition over the resource's whitelisted fields, never SQL */
  scopeValue: varchar('scope_value', { length: 2000 }),
  /** the family's descriptive columns, kept as written and never read into SQL */
  scopeColumn: varchar('scope_column', { length: 255 }),
  scopeField: varchar('scope_field', { length: 255 }),
  scopeClass: varchar('scope_class', { length: 500 }),
  remark: varchar('remark', { length: 255 }),
  ...baseColumns(),
});

/** API scopes: a path (prefix, `**` suffix allowed) that only granted roles may call. */
export const scopeApi = pgTable('blade_scope_api', {
  id: id(),
  menuId: idRef('menu_id').notNull(),
  resourceCode: varchar('resource_code', { length: 255 }).notNull(),
  scopeName: varchar('scope_name', { length: 255 }).notNull(),
  scopePath: varchar('scope_path', { length: 255 }).notNull(),
  /** 1 system API, 2 business API */
  scopeType: integer('scope_type').notNull().default(1),
  remark: varchar('remark', { length: 255 }),
  ...baseColumns(),
});

export const roleScope = pgTable(
  'blade_role_scope',
  {
    /** 1 data scope, 2 API scope */
    scopeCategory: integer('scope_category').notNull(),
    scopeId: idRef('scope_id').notNull(),
    roleId: idRef('role_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scopeCategory, t.scopeId, t.roleId] })],
);

/** China's administrative divisions, down to village level; the code is the key. */
export const region = pgTable(
  'blade_region',
  {
    code: varchar('code', { length: 12 }).primaryKey(),
    parentCode: varchar('parent_code', { length: 12 }).notNull().default('00'),
    /** comma list of ancestor codes from the root */
    ancestors: varchar('ancestors', { length: 255 }).notNull().default('00'),
    name: varchar('name', { length: 64 }).notNull(),
    /** 1 province, 2 city, 3 district, 4 town, 5 village */
    regionLevel: integer('region_level').notNull(),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [index('blade_region_parent_idx').on(t.parentCode)],
);

const logColumns = () => ({
  id: id(),
  tenantId: tenantColumn(),
  serviceId: varchar('service_id', { length: 32 }),
  serverHost: varchar('server_host', { length: 255 }),
  serverIp: varchar('server_ip', { length: 255 }),
  env: varchar('env', { length: 255 }),
  method: varchar('method', { length: 10 }),
  requestUri: varchar('request_uri', { length: 255 }),
  userAgent: varchar('user_agent', { length: 1000 }),
  remoteIp: varchar('remote_ip', { length: 255 }),
  methodClass: varchar('method_class', { length: 255 }),
  methodName: varchar('method_name', { length: 255 }),
  /** the query string with secrets masked; bodies are never stored */
  params: text('params'),
  createBy: varchar('create_by', { length: 64 }),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
});

/** Every mutating API call and every sign-in. */
export const logApi = pgTable(
  'blade_log_api',
  {
    ...logColumns(),
    type: varchar('type', { length: 2 }).notNull().default('1'),
    title: varchar('title', { length: 255 }),
    /** milliseconds the call took */
    time: integer('time'),
    statusCode: integer('status_code'),
  },
  (t) => [index('blade_log_api_tenant_idx').on(t.tenantId, t.createTime)],
);

/** Unexpected errors with their stack, and errors the browser sends. */
export const logError = pgTable(
  'blade_log_error',
  {
    ...logColumns(),
    stackTrace: text('stack_trace'),
    exceptionName: varchar('exception_name', { length: 255 }),
    message: text('message'),
    fileName: varchar('file_name', { length: 1000 }),
    lineNumber: integer('line_number'),
  },
  (t) => [index('blade_log_error_tenant_idx').on(t.tenantId, t.createTime)],
);

/** Ordinary events worth keeping (sign-in, sign-out, grants, password resets…). */
export const logUsual = pgTable(
  'blade_log_usual',
  {
    ...logColumns(),
    logLevel: varchar('log_level', { length: 10 }),
    logId: varchar('log_id', { length: 100 }),
    logData: text('log_data'),
  },
  (t) => [index('blade_log_usual_tenant_idx').on(t.tenantId, t.createTime)],
);

/** A third-party identity; guest registration links its oauthId to the account awaiting approval. */
export const userOauth = pgTable('blade_user_oauth', {
  id: id(),
  tenantId: tenantColumn(),
  uuid: varchar('uuid', { length: 64 }).notNull(),
  userId: idRef('user_id'),
  username: varchar('username', { length: 64 }),
  nickname: varchar('nickname', { length: 64 }),
  avatar: varchar('avatar', { length: 1000 }),
  source: varchar('source', { length: 32 }),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
});
