import { ASSISTANCE_DEMO, INFORMATION_STATUS } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { DEMO_VILLAGE } from '../village/seed';
import {
  assistanceProject,
  assistanceReception,
  assistanceSystem,
  assistanceUnit,
  careVideo,
  information,
} from './tables';

/**
 * Assistance and care: its dictionaries, and the demo village's assistance (tenant 000000): the units that
 * help it (a resident work team, a paired unit, an enterprise), their projects with budget and spend, the
 * assistance system, a few news items (published and hidden), receptions and care videos (addresses).
 * Deterministic: the same rows on every machine, dated from today.
 */
export async function seedAssistance(db: Db) {
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const today = formatDateTime(new Date()).slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const [team, paired, company] = [ASSISTANCE_DEMO.unitId, '1190000000001300002', '1190000000001300003'];
  await insertAll(db, assistanceUnit, [
    {
      ...base,
      id: team,
      name: `${DEMO_VILLAGE.name}驻村工作队`,
      kind: '1',
      leader: '李建国',
      contactPhone: '13807310001',
      members: 3,
      dispatchPeriod: `${day(-400)},${day(330)}`,
    },
    {
      ...base,
      id: paired,
      name: '县农业农村局',
      kind: '2',
      leader: '王海燕',
      contactPhone: '0731-84561234',
      members: 12,
      dispatchPeriod: `${day(-700)},${day(400)}`,
    },
    {
      ...base,
      id: company,
      name: '湘丰农业发展有限公司',
      kind: '3',
      leader: '陈志强',
      contactPhone: '13907310002',
      members: 5,
      remark: '产业帮扶合作企业',
    },
  ]);
  const projects: [
    name: string,
    unitId: string,
    category: string,
    budget: string,
    spend: string,
    status: string,
    progress: number,
    from: number,
    to: number,
  ][] = [
    ['村道硬化及路灯安装', team, '2', '380000.00', '352000.00', '3', 100, -360, -60],
    ['油茶种植基地建设', company, '1', '500000.00', '215000.00', '2', 45, -200, 160],
    ['留守儿童课后辅导站', team, '3', '60000.00', '18000.00', '2', 30, -90, 270],
    ['村卫生室设备更新', paired, '4', '120000.00', '0.00', '1', 0, 30, 210],
    ['农村电商技能培训', paired, '5', '45000.00', '44800.00', '3', 100, -300, -200],
  ];
  await insertAll(
    db,
    assistanceProject,
    projects.map(([name, unitId, category, budget, spend, projectStatus, progress, from, to]) => ({
      ...base,
      name,
      unitId,
      category,
      budget,
      spend,
      projectStatus,
      progress,
      period: `${day(from)},${day(to)}`,
    })),
  );
  await insertAll(db, assistanceSystem, [
    { ...base, title: '驻村工作队管理办法', category: '1', effectiveDate: day(-400) },
    { ...base, title: '帮扶资金使用管理制度', category: '2', effectiveDate: day(-380) },
    { ...base, title: '帮扶工作考核细则', category: '3', effectiveDate: day(-200) },
  ]);
  // a wall-clock time of the server's zone, as the write path stores one
  const tz = process.env.TZ || 'Asia/Shanghai';
  const at = (offset: number, time: string) =>
    sql`(${`${day(offset)} ${time}`}::timestamp at time zone ${tz})`;
  await insertAll(db, information, [
    {
      ...base,
      title: '油茶种植基地完成首批栽种',
      category: '1',
      content: '<p>在驻村工作队和帮扶企业的支持下,<strong>油茶种植基地</strong>完成首批 200 亩栽种。</p>',
      publishStatus: INFORMATION_STATUS.published,
      publishTime: at(-20, '09:30:00'),
    },
    {
      ...base,
      title: '村道硬化工程顺利完工',
      category: '1',
      content: '<p>全长 3.2 公里的村道硬化及路灯安装工程通过验收。</p><ul><li>新增路灯 86 盏</li></ul>',
      publishStatus: INFORMATION_STATUS.published,
      publishTime: at(-60, '15:00:00'),
    },
    {
      ...base,
      title: '关于开展农村电商培训的通知',
      category: '3',
      content: '<p>培训时间另行通知。</p>',
      publishStatus: INFORMATION_STATUS.hidden,
      publishTime: null,
    },
  ]);
  await insertAll(db, assistanceReception, [
    {
      ...base,
      visitorName: '张明',
      visitorUnit: '市乡村振兴局',
      phone: '13807310003',
      visitTime: at(-10, '10:00:00'),
      persons: 4,
      purpose: '调研帮扶项目进展',
      receiver: '李建国',
    },
    {
      ...base,
      visitorName: '刘芳',
      visitorUnit: '省农科院',
      phone: '0731-84560000',
      visitTime: at(-35, '14:30:00'),
      persons: 2,
      purpose: '油茶种植技术指导',
      receiver: '王海燕',
    },
  ]);
  await insertAll(db, careVideo, [
    {
      ...base,
      title: '留守儿童安全教育',
      category: '1',
      videoUrl: 'https://video.example.com/care/safety.mp4',
      description: '暑期防溺水安全知识',
    },
    {
      ...base,
      title: '老年人慢性病防治',
      category: '3',
      videoUrl: 'https://video.example.com/care/health.mp4',
    },
  ]);
}
