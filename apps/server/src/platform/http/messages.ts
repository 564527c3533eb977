/**
 * Every message the server sends, in Chinese and English. `msg` follows the request's Accept-Language
 * (default zh). Keys are stable; tests compare texts word for word.
 */
const zh = {
  ok: '操作成功',
  badRequest: '请求参数有误',
  unauthorized: '请求未授权',
  tokenInvalid: '令牌无效或已过期,请重新登录',
  forbidden: '缺少访问权限',
  notFound: '数据不存在',
  routeNotFound: '接口不存在',
  flowStuck: '流程无法继续: {reason}',
  flowCalledInstance: '该流程由流程 {caller} 的调用活动发起,不能单独删除;请删除调用它的流程',
  serverError: '服务器异常,请联系管理员',
  clientAuthFailed: '客户端认证失败',
  grantNotAllowed: '该客户端不支持此登录方式',
  grantNotConfigured: '该登录方式未配置',
  captchaRequired: '请输入验证码',
  captchaInvalid: '验证码不正确',
  badCredentials: '用户名或密码不正确',
  accountLocked: '登录错误次数过多,账号已锁定,请 {minutes} 分钟后再试',
  accountPending: '账号正在等待管理员审核',
  accountDisabled: '账号已被停用',
  tenantNotFound: '租户信息错误',
  tenantExpired: '租户授权已过期,请联系管理员',
  refreshInvalid: '刷新令牌无效或已使用,请重新登录',
  roleNotOwned: '无权切换到该角色',
  deptNotOwned: '无权切换到该部门',
  passwordMismatch: '两次密码输入不一致',
  oldPasswordWrong: '原密码不正确',
  passwordSame: '新密码不能与原密码相同',
  passwordFormat: '密码格式不正确',
  fieldRequired: '{field} 不能为空',
  fieldTooLong: '{field} 长度不能超过 {max}',
  fieldTooShort: '{field} 长度不能少于 {min}',
  fieldFormat: '{field} 格式不正确',
  fieldInvalid: '{field} 的值无效',
  tooManyRequests: '请求过于频繁,请稍后再试',
  valueTaken: '数据已存在,请刷新后重试',
  unknownFilter: '不支持的查询条件: {field}',
  unknownSort: '不支持的排序字段: {field}',
  duplicate: '{field}已存在',
  fieldMessage: '{message}',
  idsRequired: '请选择至少一条数据',
  hasChildren: '请先删除子节点',
  parentInvalid: '上级节点无效',
  passwordChangeRequired: '请先修改初始密码',
  signInThrottled: '登录尝试过于频繁,请 {seconds} 秒后再试',
  roleBeyondOwn: '不能授予超出自己权限的角色',
  userBeyondOwn: '无权操作权限高于自己的用户',
  adminRoleFixed: '管理员角色不可修改、删除或冒用',
  scopeHeld: '不能修改或删除自己角色所持有的权限范围',
  evaluationFrozen: '评比项目已发布,结果已冻结;如需修改请先重新开放',
  evaluationNotPublished: '评比项目尚未发布,无需重新开放',
};

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = {
  ok: 'Operation successful',
  badRequest: 'Bad request parameters',
  unauthorized: 'Unauthorized request',
  tokenInvalid: 'The token is invalid or has expired; please sign in again',
  forbidden: 'Access denied',
  notFound: 'No such data',
  routeNotFound: 'No such endpoint',
  flowStuck: 'The process cannot go on: {reason}',
  flowCalledInstance:
    'This process was started by a call activity of process {caller} and cannot be deleted on its own; delete the process that called it',
  serverError: 'Server error; please contact the administrator',
  clientAuthFailed: 'Client authentication failed',
  grantNotAllowed: 'This client may not use this sign-in method',
  grantNotConfigured: 'This sign-in method is not configured',
  captchaRequired: 'Please enter the captcha',
  captchaInvalid: 'The captcha is incorrect',
  badCredentials: 'Incorrect username or password',
  accountLocked: 'Too many failed sign-ins; the account is locked, try again in {minutes} minutes',
  accountPending: 'The account is awaiting administrator approval',
  accountDisabled: 'The account is disabled',
  tenantNotFound: 'Incorrect tenant',
  tenantExpired: "The tenant's licence has expired; please contact the administrator",
  refreshInvalid: 'The refresh token is invalid or already used; please sign in again',
  roleNotOwned: 'You may not switch to this role',
  deptNotOwned: 'You may not switch to this department',
  passwordMismatch: 'The two passwords do not match',
  oldPasswordWrong: 'The old password is incorrect',
  passwordSame: 'The new password must differ from the old one',
  passwordFormat: 'The password format is incorrect',
  fieldRequired: '{field} is required',
  fieldTooLong: '{field} must be at most {max} characters',
  fieldTooShort: '{field} must be at least {min} characters',
  fieldFormat: '{field} has an incorrect format',
  fieldInvalid: '{field} has an invalid value',
  tooManyRequests: 'Too many requests; please try again later',
  valueTaken: 'The value is already taken; refresh and try again',
  unknownFilter: 'Unsupported filter: {field}',
  unknownSort: 'Unsupported sort column: {field}',
  duplicate: '{field} already exists',
  fieldMessage: '{message}',
  idsRequired: 'please select at least one record',
  hasChildren: 'please remove its children first',
  parentInvalid: 'The parent is invalid',
  passwordChangeRequired: 'Please change your initial password first',
  signInThrottled: 'Too many sign-in attempts; try again in {seconds} seconds',
  roleBeyondOwn: 'You cannot grant a role with rights beyond your own',
  userBeyondOwn: 'You may not act on a user with rights beyond your own',
  adminRoleFixed: 'The administrator role cannot be changed, removed or imitated',
  scopeHeld: 'You cannot change or remove a scope your own roles hold',
  evaluationFrozen: 'The project is published and its results are frozen; reopen it to change them',
  evaluationNotPublished: 'The project is not published, so there is nothing to reopen',
};

export type Lang = 'zh' | 'en';

export function langOf(acceptLanguage: string | undefined): Lang {
  return acceptLanguage?.trim().toLowerCase().startsWith('en') ? 'en' : 'zh';
}

export function t(lang: Lang, key: MessageKey, vars?: Record<string, string | number>): string {
  let text = (lang === 'en' ? en : zh)[key];
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}
