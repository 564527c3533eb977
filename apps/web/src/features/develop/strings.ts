/** Texts of the developer tools' screens (the fields' labels come from the resource definitions). */
export const developZh = {
  test: '测试连接',
  testPassed: '连接成功({ms} 毫秒):{version}',
  testFailed: '连接失败:{code} {message}',
  sync: '读取字段',
  syncTitle: '读取字段:{name}',
  syncNone: '表结构与模型字段一致',
  addedColumns: '新增字段',
  removedColumns: '已删除字段',
  changedColumns: '类型或说明已变',
  apply: '应用到模型',
  applied: '已应用到模型',
};

export const developEn: typeof developZh = {
  test: 'Test connection',
  testPassed: 'Connected ({ms} ms): {version}',
  testFailed: 'Connection failed: {code} {message}',
  sync: 'Read the columns',
  syncTitle: 'Read the columns: {name}',
  syncNone: 'The table and the model’s fields agree',
  addedColumns: 'Columns added',
  removedColumns: 'Columns removed',
  changedColumns: 'Type or comment changed',
  apply: 'Apply to the model',
  applied: 'Applied to the model',
};
