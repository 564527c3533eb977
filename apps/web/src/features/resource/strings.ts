/** Texts of the resource screens (the fields' labels come from the resource definitions). */
export const resourceZh = {
  enable: '启用',
  enabled: '已启用',
  disabled: '未启用',
  enableConfirm: '启用“{name}”?同一租户只能启用一个存储配置,其他配置将被停用;已上传的文件仍从原配置读取。',
  test: '测试',
  testTitle: '存储测试:{name}',
  testRunning: '正在测试…',
  testPassed: '四个步骤全部通过',
  testFailed: '测试未通过',
  stepPassed: '通过({ms} 毫秒)',
  stepSkipped: '未执行:前面的步骤失败',
  providerCode: '错误码',
  httpStatus: 'HTTP 状态',
};

export const resourceEn: typeof resourceZh = {
  enable: 'Enable',
  enabled: 'Enabled',
  disabled: 'Not enabled',
  enableConfirm:
    'Enable “{name}”? A tenant has one enabled storage config: the others are disabled; files already uploaded are still read from their own config.',
  test: 'Test',
  testTitle: 'Storage test: {name}',
  testRunning: 'Testing…',
  testPassed: 'All four steps passed',
  testFailed: 'The test failed',
  stepPassed: 'Passed ({ms} ms)',
  stepSkipped: 'Not run: an earlier step failed',
  providerCode: 'Code',
  httpStatus: 'HTTP status',
};
