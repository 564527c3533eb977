import { SYSTEM_DICT } from './dicts';
import type { ResourceDef } from './types';

/**
 * Users: served by the resource engine like every list (the server's `modules/user/binding.ts` adds what is
 * a user's own: roles and departments kept beside the row, the password, the quota, sessions, the screen's
 * actions). The spec names the Excel routes `import-user`, `export-user` and `export-template`.
 */
export const userResource: ResourceDef = {
  key: 'user',
  label: { zh: '用户管理', en: 'Users' },
  service: 'dfem-user',
  path: '',
  route: '/system/user',
  permission: 'user',
  tenant: true,
  listPath: 'page',
  unique: ['account'],
  // who a device or a task notifies is picked among the tenant's users (GET /api/dfem-user/select), and so
  // are the approvers a start form or a handle form names (发起, 办理: a countersign's list)
  select: {
    label: 'realName',
    search: ['realName', 'account'],
    hint: 'account',
    pickedBy: ['work_start', 'work_todo'],
  },
  excel: {
    fileName: { zh: '用户数据', en: 'users' },
    import: true,
    key: 'account',
    cover: 'isCovered',
    importedNote: {
      zh: '新增的账号还没有密码:请选中后点“密码重置”,把生成的初始密码告诉本人',
      en: 'The new accounts have no password yet: select them, choose “Reset password” and pass each person the generated one',
    },
    paths: { import: 'import-user', export: 'export-user', template: 'export-template' },
  },
  fields: [
    {
      name: 'account',
      label: { zh: '登录账号', en: 'Account' },
      type: 'text',
      required: true,
      max: 45,
      pattern: '[A-Za-z0-9_.@-]+',
      search: 'like',
    },
    { name: 'password', label: { zh: '密码', en: 'Password' }, type: 'password', secret: true, list: false },
    {
      name: 'realName',
      label: { zh: '用户姓名', en: 'Real name' },
      type: 'text',
      required: true,
      max: 10,
      search: 'like',
    },
    {
      name: 'name',
      label: { zh: '用户昵称', en: 'Nickname' },
      type: 'text',
      max: 20,
      list: false,
      excel: true,
    },
    { name: 'code', label: { zh: '用户编号', en: 'User code' }, type: 'text', max: 12, list: false },
    { name: 'phone', label: { zh: '手机号码', en: 'Phone' }, type: 'mobile' },
    { name: 'email', label: { zh: '电子邮箱', en: 'Email' }, type: 'email', max: 45 },
    { name: 'sex', label: { zh: '用户性别', en: 'Sex' }, type: 'dict', dict: SYSTEM_DICT.sex },
    {
      name: 'birthday',
      notAfterToday: true,
      label: { zh: '用户生日', en: 'Birthday' },
      type: 'date',
      list: false,
      excel: true,
    },
    {
      name: 'roleId',
      label: { zh: '所属角色', en: 'Roles' },
      type: 'ids',
      tree: 'role',
      required: true,
      list: false,
      excel: true,
    },
    {
      name: 'deptId',
      label: { zh: '所属机构', en: 'Departments' },
      type: 'ids',
      tree: 'dept',
      required: true,
      list: false,
      excel: true,
    },
    {
      name: 'postId',
      label: { zh: '所属岗位', en: 'Posts' },
      type: 'ids',
      tree: 'post',
      list: false,
      max: 1000,
    },
  ],
};
