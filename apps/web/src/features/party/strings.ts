/** Texts of the party building screens (the fields' labels come from the resource definitions). */
export const partyZh = {
  dueTitle: '预备期将满提醒',
  dueWithin: '期满天数以内',
  days: '天',
  dueEmpty: '没有预备期将满的党员',
  dueName: '姓名',
  dueOrg: '所在党组织',
  dueJoined: '入党日期',
  dueEnds: '预备期满',
  dueLeft: '剩余天数',
  overdue: '已逾期 {days} 天',
  notify: '发布提醒通知',
  notified: '已发布通知公告',
  notifiedBefore: '今日已发布过相同的提醒',
  nobodyDue: '没有需要提醒的党员',
};

export const partyEn: typeof partyZh = {
  dueTitle: 'Probation ending soon',
  dueWithin: 'Ending within',
  days: 'days',
  dueEmpty: 'No probation ends in this period',
  dueName: 'Name',
  dueOrg: 'Organisation',
  dueJoined: 'Joined on',
  dueEnds: 'Probation ends',
  dueLeft: 'Days left',
  overdue: '{days, plural(one: day; other: days)} overdue',
  notify: 'Post a reminder notice',
  notified: 'Posted to the notices',
  notifiedBefore: 'The same reminder was posted already today',
  nobodyDue: 'Nobody to remind',
};
