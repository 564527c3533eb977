import { authFile, expect, test } from './fixtures';
import { adminApi, choose, rowActions, searchList } from './flow-helpers';

/**
 * 部署管理 and 流程跟踪: an uploaded file the engine refuses says why; a good one deploys for the chosen
 * tenant; suspend and activate ask first; a running instance is ended with a required reason; a deployment
 * whose instances still run is refused with the server's reason and removed only when the cascade is
 * confirmed.
 */
test.use({ storageState: authFile() });

const bpmn = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://smart-admin/flow">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" />
    <userTask id="approve" name="审批" camunda:assignee="\${taskUser}" />
    <endEvent id="end" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <sequenceFlow id="f2" sourceRef="approve" targetRef="end" />
  </process>
  <bpmndi:BPMNDiagram id="dg"><bpmndi:BPMNPlane id="p" bpmnElement="${key}">
    <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="200" y="78" width="100" height="80" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="360" y="100" width="36" height="36" /></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="118" /><di:waypoint x="200" y="118" /></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="300" y="118" /><di:waypoint x="360" y="118" /></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;

test('deployments are uploaded, suspended, followed and removed with their running instances', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_upload_${suffix}`;
  const name = `上传的流程${suffix}`;

  // ---- upload: a broken file is refused with the server's reason, a good one deploys
  await page.goto('/flow/manager/index');
  await page.getByRole('button', { name: '部署上传' }).click();
  const dialog = page.getByRole('dialog', { name: '上传并部署流程文件' });
  await choose(dialog, '流程类型', '请假流程');
  await dialog.getByLabel('定制').check();
  await choose(dialog, '租户', '管理组 (000000)');
  const files = dialog.locator('input[type=file]');
  const deploy = dialog.getByRole('button', { name: /^部\s*署$/ });
  await files.setInputFiles({
    name: 'broken.bpmn',
    mimeType: 'application/xml',
    buffer: Buffer.from('<hello/>'),
  });
  await deploy.click();
  await expect(dialog.getByRole('alert').filter({ hasText: '部署被拒绝' })).toContainText(
    'broken.bpmn 不能部署',
  );

  await dialog.getByRole('button', { name: /删除文件|remove file/i }).click();
  await files.setInputFiles({
    name: `${key}.bpmn`,
    mimeType: 'application/xml',
    buffer: Buffer.from(bpmn(key, name)),
  });
  await deploy.click();
  await expect(page.getByText('部署成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  await searchList(page, '部署列表', { 流程标识: key });
  const row = page.getByRole('region', { name: '部署列表' }).getByRole('row', { name: new RegExp(key) });
  await expect(row).toContainText('定制');
  await expect(row).toContainText('v1');

  // two running instances (started through the API: starting is not what this test is about)
  const api = await adminApi(baseURL!);
  const { records } = await api.call<{ records: { processDefinitionId: string }[] }>(
    'GET',
    `/dfem-flow/manager/list?processKey=${key}`,
  );
  const users = await api.call<{ records: { id: string; account: string }[] }>(
    'GET',
    '/dfem-user/page?size=200',
  );
  for (const day of ['01', '02'])
    await api.call('POST', '/dfem-desk/process/leave/start-process', {
      processDefinitionId: records[0].processDefinitionId,
      taskUser: users.records.find((u) => u.account === 'admin')!.id,
      startTime: `2026-12-${day} 09:00:00`,
      endTime: `2026-12-${day} 18:00:00`,
      reason: 'e2e',
    });

  // ---- suspended, after a confirmation: the button turns into 激活
  const actions = rowActions(page, `${name} v1`);
  await actions.getByRole('button', { name: '挂起' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: '挂起后不能再发起' })
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('已挂起')).toBeVisible();
  await expect(row.getByText('挂起', { exact: true })).toBeVisible();
  await expect(actions.getByRole('button', { name: '激活' })).toBeVisible();

  // ---- 流程跟踪: one instance is ended, with a required reason
  await page.goto('/flow/follow/index');
  await searchList(page, '运行中的流程', { 流程标识: key });
  const running = page
    .getByRole('region', { name: '运行中的流程' })
    .getByRole('row', { name: new RegExp(name) });
  await expect(running).toHaveCount(2);
  await running.first().getByRole('button', { name: '删除' }).click();
  const ending = page.getByRole('dialog', { name: '删除流程实例' });
  await ending.getByRole('button', { name: /删\s*除/ }).click();
  await expect(ending.getByText('请输入删除原因')).toBeVisible();
  await ending.getByLabel('删除原因').fill('测试结束');
  await ending.getByRole('button', { name: /删\s*除/ }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(running).toHaveCount(1);

  // ---- the deployment: refused while the other runs, removed when the cascade is confirmed
  await page.goto('/flow/manager/index');
  await searchList(page, '部署列表', { 流程标识: key });
  await actions.getByRole('button', { name: '删除' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: '确定删除' })
    .getByRole('button', { name: /确\s*定/ })
    .click();
  const cascade = page.getByRole('dialog').filter({ hasText: '仍有运行中的流程' });
  await expect(cascade).toContainText('该部署仍有 1 个运行中的流程实例');
  await cascade.getByRole('button', { name: '一并终止并删除' }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);
});
