/** Wire formats of ../shared/design/api-contract.md, shared by server and web. */

export interface Envelope<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** What the web needs to know of the server's modes before anyone signs in. */
export interface AppSettings {
  tenantMode: boolean;
  captchaMode: boolean;
  switchMode: boolean;
  /** seconds; the web refreshes the token when its age reaches this */
  tokenTime: number;
  defaultTenantId: string;
  /** the deployment's time zone (IANA, the server's `TZ`): every time on screen is shown in it */
  timeZone: string;
}

/** Flat body of a successful POST /api/dfem-auth/oauth/token. */
export interface LoginResult {
  access_token: string;
  token_type: 'bearer';
  refresh_token: string;
  expires_in: number;
  tenant_id: string;
  user_id: string;
  dept_id: string;
  post_id: string;
  role_id: string;
  account: string;
  user_name: string;
  nick_name: string;
  real_name: string;
  role_name: string;
  avatar: string;
  client_id: string;
  license: string;
  /** true while the user still has the seeded or reset default password: the web asks for a new one */
  password_change_required: boolean;
}

export interface LoginFailure {
  error_code: number;
  error_description: string;
}

export interface CaptchaResult {
  key: string;
  /** data URL */
  image: string;
}

export interface MenuNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: number;
  action: number;
  isOpen: number;
  /** keep the page mounted while its tab is inactive */
  keepAlive?: boolean;
  children: MenuNode[];
}

export interface UserInfo {
  id: string;
  tenantId: string;
  account: string;
  name: string;
  realName: string;
  avatar: string;
  email: string;
  phone: string;
  deptId: string;
  roleId: string;
  roleName: string;
  passwordChangeRequired: boolean;
}

export interface DictEntry {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  remark: string;
  isSealed: number;
}

/** A task on the home workplace (GET /api/dfem-desk/home): the oldest open ones first. */
export interface HomeTask {
  taskId: string;
  taskName: string;
  processInstanceId: string;
  processName: string;
  businessId: string;
  /** the `flow` dictionary's form family of the process category (`leave`), '' when it names none */
  route: string;
  startUserName: string;
  /** when the task arrived, 'YYYY-MM-DD HH:mm:ss' */
  createTime: string;
  /** seconds it has waited */
  waited: number;
}

/** The home workplace, in one answer: only the parts the caller holds the menu codes of are present. */
export interface HomeWorkplace {
  /** the caller's roles, named in the request's language (a seeded role has an English name) */
  roleName?: string;
  /** work_todo: the caller's open tasks */
  todo?: { total: number; oldest: HomeTask[] };
  /** work_claim: tasks the caller may claim */
  claim?: { total: number; oldest: HomeTask[] };
  /** work_send: the caller's applications still running */
  running?: {
    total: number;
    latest: {
      processInstanceId: string;
      processName: string;
      businessId: string;
      route: string;
      /** the open tasks' names */
      current: string;
      startTime: string;
    }[];
  };
  /** notice: the latest notices (released since the previous sign-in first, marked `fresh`) */
  notices?: { id: string; title: string; categoryName: string; releaseTime: string; fresh: boolean }[];
  /** one per area the caller may open: what it counts and the screen it opens */
  figures: { key: string; name: string; value: number; route: string }[];
  /** what is new since the previous sign-in (absent on the first sign-in): only parts the caller holds */
  since?: { at: string; todo?: number; notices?: number; alarms?: number };
}
