/**
 * Strings of the personal info page, in both languages; registered into i18next when its chunk loads.
 * The avatar messages are the server's own (apps/server/src/modules/resource/files.ts).
 */
export const profileZh = {
  title: '个人信息',
  infoTab: '个人信息',
  passwordTab: '修改密码',
  account: '登录账号',
  infoSaved: '修改成功',
  avatar: {
    label: '头像',
    upload: '上传头像',
    hint: '只能上传 jpg/png 文件,且不超过 500KB',
    type: '头像只能是 JPG 或 PNG 图片',
    size: '头像图片大小不能超过 500KB',
  },
  password: {
    old: '原密码',
    new: '新密码',
    confirm: '确认密码',
    oldRequired: '请输入原密码',
    newRequired: '请输入新密码',
    confirmRequired: '请输入确认密码',
    mismatch: '两次密码输入不一致',
    submit: '修改密码',
    done: '修改成功',
  },
};

export const profileEn: typeof profileZh = {
  title: 'Personal info',
  infoTab: 'Personal info',
  passwordTab: 'Change password',
  account: 'Account',
  infoSaved: 'Saved successfully',
  avatar: {
    label: 'Avatar',
    upload: 'Upload avatar',
    hint: 'jpg or png only, at most 500 KB',
    type: 'The avatar must be a JPG or PNG image',
    size: 'The avatar must be at most 500 KB',
  },
  password: {
    old: 'Old password',
    new: 'New password',
    confirm: 'Confirm password',
    oldRequired: 'please enter the old password',
    newRequired: 'please enter the new password',
    confirmRequired: 'please enter the password again',
    mismatch: 'The two passwords do not match',
    submit: 'Change password',
    done: 'Changed successfully',
  },
};
