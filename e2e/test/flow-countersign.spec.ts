// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import { authFile, expect, test } from './fixtures';
import { choose, openNewModel } from './flow-helpers';
import { adminToken, BASIC } from './shell-helpers';

/**
 * A countersign (会签) set in the designer's properties panel: the user task becomes one task per approver
 * of `${approvers}` (each `${approver}` in it), saved in the model as a multi-instance user task the engine
 * deploys.
 */
test.use({ storageState: authFile() });

test('a user task made a countersign in the properties panel is saved as one task per approver, and deploys', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_countersign_${suffix}`;
  const name = `会签${suffix}`;

  const { dialog, canvas, start, panel, pad } = await openNewModel(page, key, name);

  // a user task appended to the start event, then the end after it
  await start.click();
  await pad.getByTitle('追加用户任务').click();
  await page.keyboard.type('会签审批');
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('heading', { name: '用户任务' })).toBeVisible();
  await choose(panel, '多人审批', '会签(全部同意)');
  await expect(panel.getByText('每位审批人各得一份任务')).toBeVisible();
  await pad.getByTitle('追加结束事件').click();
  await page.keyboard.press('Enter');
  await expect(canvas.locator('.djs-connection')).toHaveCount(2);

  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();

  const { access_token } = await adminToken(baseURL!);
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${access_token}` };
  const list = await (await fetch(`${baseURL}/api/dfem-flow/model/list?modelKey=${key}`, { headers })).json();
  const id = list.data.records[0].id as string;
  const model = await (await fetch(`${baseURL}/api/dfem-flow/model/detail?id=${id}`, { headers })).json();
  const xml = model.data.xml as string;
  expect(xml).toContain('multiInstanceLoopCharacteristics');
  expect(xml).toContain('camunda:collection="${approvers}"');
  expect(xml).toContain('camunda:elementVariable="approver"');
  expect(xml).toContain('camunda:assignee="${approver}"');
  // and the engine takes it: deployed through the API as the screen's 部署 button does
  const deployed = await fetch(`${baseURL}/api/dfem-flow/model/deploy`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ modelId: id, category: '1', tenantIds: [] }),
  });
  expect(deployed.status, await deployed.clone().text()).toBe(200);
});
