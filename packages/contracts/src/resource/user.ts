import type { ResourceDef } from './types';

/**
 * Users: the generic list page and the generic tests read this definition; the server's routes are the
 * module's own (password, roles and depts live beside the row), following the same conventions.
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
    { name: 'name', label: { zh: '用户昵称', en: 'Nickname' }, type: 'text', max: 20, list: false },
    { name: 'code', label: { zh: '用户编号', en: 'User code' }, type: 'text', max: 12, list: false },
    { name: 'phone', label: { zh: '手机号码', en: 'Phone' }, type: 'mobile' },
    { name: 'email', label: { zh: '电子邮箱', en: 'Email' }, type: 'email', max: 45 },
    { name: 'sex', label: { zh: '用户性别', en: 'Sex' }, type: 'dict', dict: 'sex' },
    { name: 'birthday', label: { zh: '用户生日', en: 'Birthday' }, type: 'date', list: false },
    {
      name: 'roleId',
      label: { zh: '所属角色', en: 'Roles' },
      type: 'ids',
      tree: 'role',
      required: true,
      list: false,
    },
    {
      name: 'deptId',
      label: { zh: '所属机构', en: 'Departments' },
      type: 'ids',
      tree: 'dept',
      required: true,
      list: false,
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
