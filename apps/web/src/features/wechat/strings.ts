/** Texts of the WeChat screens (the fields' labels come from the resource definitions). */
export const wechatZh = {
  setTop: '置顶',
  unsetTop: '取消置顶',
  onTop: '置顶',
  activeState: '生效状态',
  active: '生效中',
  inactive: '未生效',
  qrImage: '二维码图片',
  qrOf: '二维码:{content}',
  qrFailed: '二维码生成失败',
};

export const wechatEn: typeof wechatZh = {
  setTop: 'Set to top',
  unsetTop: 'Remove from top',
  onTop: 'On top',
  activeState: 'Effective',
  active: 'In effect',
  inactive: 'Not in effect',
  qrImage: 'QR code image',
  qrOf: 'QR code: {content}',
  qrFailed: 'The QR code could not be drawn',
};
