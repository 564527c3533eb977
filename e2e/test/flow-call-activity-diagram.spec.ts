import { authFile, expect, test } from './fixtures';
import { choose, expandedCallXml, openDeployedDiagram } from './flow-helpers';
import { adminToken, BASIC } from './shell-helpers';

/**
 * An expanded call activity draws the process it calls (as the BPMN MIWG's B.2.0 files do): the file's
 * second diagram holds a call activity marked isExpanded with the called process' shapes inside it;
 * 部署管理's 流程图 draws them there, the call activity's name at its top.
 */
test.use({ storageState: authFile() });

const suffix = Date.now().toString(36);
const key = `expanded_call_${suffix}`;
const name = `展开的调用 ${suffix}`;

const XML = expandedCallXml(key, name, suffix);

test('an expanded call activity draws the process it calls', async ({ page, baseURL }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { access_token } = await adminToken(baseURL!);
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([XML]), 'expanded-call.bpmn');
  const res = await fetch(`${baseURL}/api/dfem-flow/manager/deploy-upload`, {
    method: 'POST',
    headers: { authorization: BASIC, 'blade-auth': `bearer ${access_token}` },
    body: form,
  });
  expect((await res.json()).code).toBe(200);

  const { dialog, canvas } = await openDeployedDiagram(page, key, name);
  const element = (id: string) => canvas.locator(`.djs-element[data-element-id="${id}"]`);
  await choose(dialog, '选择流程图', '调用方');
  await expect(element('call')).toBeVisible();
  // the called process, inside the call activity's box
  for (const id of ['calledStart', 'check', 'calledEnd']) await expect(element(id)).toBeVisible();
  // (a straight flow's box is zero high: drawn is what can be asked of it)
  for (const id of ['toCheck', 'toCalledEnd'])
    await expect(element(id).locator('.djs-visual path').first()).toBeAttached();
  await expect(element('check')).toContainText('审核材料');
  const box = (await element('call').boundingBox())!;
  const inner = (await element('check').boundingBox())!;
  expect(inner.x).toBeGreaterThan(box.x);
  expect(inner.x + inner.width).toBeLessThan(box.x + box.width);
  // drawn expanded: its name at the top, above the content, and no "+" marker
  const label = (await element('call').locator('.djs-label').boundingBox())!;
  expect(label.y + label.height).toBeLessThan(inner.y);
  await expect(element('call').locator('[data-marker="sub-process"]')).toHaveCount(0);
  expect(errors).toEqual([]);
});
