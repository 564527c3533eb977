import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { choose, openDeployedDiagram, rowActions, searchList } from './flow-helpers';
import { adminToken, BASIC } from './shell-helpers';

/**
 * The gallery of standard BPMN 2.0 diagrams (apps/server/test/fixtures/bpmn, checked against the engine by
 * apps/server/test/bpmn-gallery.test.ts) drawn in the browser: a deployed diagram by 部署管理's 流程图
 * (bpmn-js NavigatedViewer), a diagram the engine refuses by the model designer (bpmn-js Modeler), where
 * deploying it shows the refusal. Every shape and edge of the file is drawn, nothing reports an error, and
 * the page logs no error.
 */
test.use({ storageState: authFile() });

const DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../apps/server/test/fixtures/bpmn');
const xmlOf = (file: string) => readFileSync(join(DIR, file), 'utf8');

/** The elements the file draws: the bpmnElement of every BPMNShape and BPMNEdge. */
const drawnIds = (xml: string) =>
  [...xml.matchAll(/<bpmndi:BPMN(?:Shape|Edge)\b[^>]*?\bbpmnElement="([^"]+)"/g)].map((m) => m[1]);

/** The file's diagrams: the process's (first), then those of collapsed sub-processes (drawn on drill-down). */
const planesOf = (xml: string) =>
  xml
    .split('<bpmndi:BPMNDiagram')
    .slice(1)
    .map((section) => ({
      element: /<bpmndi:BPMNPlane\b[^>]*?\bbpmnElement="([^"]+)"/.exec(section)![1],
      ids: drawnIds(section),
    }));

function processOf(file: string) {
  const m = /<bpmn:process id="([^"]+)" name="([^"]+)" isExecutable="true"/.exec(xmlOf(file));
  if (!m) throw new Error(`${file} has no executable process`);
  return { key: m[1], name: m[2] };
}

/** Refused at deployment: the element the refusal names, and its id. */
/**
 * What the refusal says after "<file> 不能部署: ", and the element the designer marks as one the engine
 * cannot run (a service task the engine runs, but not without a named action: the designer does not mark it)
 */
const REFUSED: Record<string, { says: string; id?: string }> = {
  'all-gateways.bpmn': { says: '流程引擎不能执行 ComplexGateway "汇总"', id: 'collect' },
  // not clicked in the designer: a click on an expanded container lands on one of its children
  'subprocesses.bpmn': { says: '流程引擎不能执行 Transaction "支付事务"' },
  'task-types.bpmn': { says: 'ServiceTask "查询库存" 没有指定本系统提供的动作' },
};
/**
 * Deployed today (lanes-executable.bpmn goes through the upload dialog in the first test). Some of these
 * the engine cannot carry through yet (see bpmn-gallery.test.ts); should it refuse one, it is drawn by the
 * designer instead.
 */
const DEPLOYED = [
  'boundary-events.bpmn',
  'events-artifacts.bpmn',
  'pools-message-flows.bpmn',
  'black-box-pool.bpmn',
  'inclusive-join.bpmn',
  'nested-subprocesses.bpmn',
  'multi-instance.bpmn',
  'manual-task.bpmn',
  'script-condition.bpmn',
];

/** Uncaught page errors and console errors; a refused deployment's 400 is expected, nothing else. */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const url = m.location().url;
    if (/status of 400/.test(m.text()) && /\/(manager\/deploy-upload|model\/deploy)$/.test(url)) return;
    errors.push(`console: ${m.text()} (${url})`);
  });
  return errors;
}

/**
 * Every element of the file has its graphics in `canvas`; those of a collapsed sub-process's own diagram
 * once it is opened (its drill-down button), after which the breadcrumb leads back. Only the plane shown
 * is in the document.
 */
async function expectDrawn(canvas: Locator, file: string) {
  const [main, ...subProcesses] = planesOf(xmlOf(file));
  const element = (id: string) => canvas.locator(`.djs-element[data-element-id="${id}"]`);
  expect(main.ids.length).toBeGreaterThan(5);
  for (const id of main.ids) await expect(element(id), id).toHaveCount(1);
  // and the process is on screen, not just in the document
  await expect(element(main.ids[0])).toBeVisible();
  for (const plane of subProcesses) {
    await canvas.locator(`[data-container-id="${plane.element}"] .bjs-drilldown`).click();
    // (a hidden plane's graphics are out of the document: being there is being on the plane shown)
    for (const id of plane.ids) await expect(element(id), `${plane.element} › ${id}`).toHaveCount(1);
    await expect(element(plane.ids[0])).toBeVisible();
    await canvas.locator('a.bjs-crumb').first().click();
    await expect(element(main.ids[0])).toBeVisible();
  }
}

/** 部署管理 → the definition's 流程图: drawn whole, without the error line. */
async function expectDrawnByManager(page: Page, file: string) {
  const { key, name } = processOf(file);
  const { dialog, canvas: diagram } = await openDeployedDiagram(page, key, name);
  await expectDrawn(diagram, file);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: /close|关闭/i }).click();
  await expect(dialog).toBeHidden();
}

/**
 * The file saved as a model (through the API), opened in the designer: drawn whole, no import error; the
 * element `refused` (an id), once selected, is marked in the properties panel as one the engine cannot run.
 */
async function expectDrawnByDesigner(page: Page, baseURL: string, file: string, refused?: string) {
  const suffix = Date.now().toString(36);
  const modelKey = `gallery_${file.replace(/\.bpmn$/, '').replaceAll('-', '_')}_${suffix}`;
  const name = `画廊 ${file} ${suffix}`;
  const { access_token } = await adminToken(baseURL);
  const res = await fetch(`${baseURL}/api/dfem-flow/model/submit`, {
    method: 'POST',
    headers: {
      authorization: BASIC,
      'blade-auth': `bearer ${access_token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ modelKey, name, category: '2', xml: xmlOf(file) }),
  });
  expect(res.status, await res.clone().text()).toBe(200);

  await page.goto('/flow/model/index');
  await searchList(page, '模型列表', { 模型名称: name });
  await rowActions(page, name)
    .getByRole('button', { name: /编\s*辑/ })
    .click();
  const dialog = page.getByRole('dialog', { name: '编辑模型' });
  // the save button waits for the modeler to have imported the diagram
  await expect(dialog.getByRole('button', { name: /保\s*存/ })).toBeEnabled();
  const canvas = dialog.getByRole('region', { name: '流程图画布' });
  await expectDrawn(canvas, file);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  if (refused) {
    await canvas.locator(`.djs-element[data-element-id="${refused}"]`).click();
    await expect(dialog.getByRole('complementary', { name: '属性面板' }).getByRole('alert')).toContainText(
      '流程引擎不能执行这种元素',
    );
  }
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(dialog).toBeHidden();
  return { modelKey, name };
}

async function uploadThroughApi(baseURL: string, file: string) {
  const { access_token } = await adminToken(baseURL);
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([xmlOf(file)]), file);
  const res = await fetch(`${baseURL}/api/dfem-flow/manager/deploy-upload`, {
    method: 'POST',
    headers: { authorization: BASIC, 'blade-auth': `bearer ${access_token}` },
    body: form,
  });
  return (await res.json()) as { code: number; msg: string };
}

test('the upload dialog refuses a diagram with a complex gateway by name, deploys one in lanes, and 流程图 draws it whole', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  await page.goto('/flow/manager/index');
  await page.getByRole('button', { name: '部署上传' }).click();
  const dialog = page.getByRole('dialog', { name: '上传并部署流程文件' });
  await choose(dialog, '流程类型', '报销流程');
  const files = dialog.locator('input[type=file]');
  const deploy = dialog.getByRole('button', { name: /^部\s*署$/ });
  for (const [file, shown] of [
    ['all-gateways.bpmn', 'refused'],
    ['lanes-executable.bpmn', 'deployed'],
  ]) {
    await files.setInputFiles({ name: file, mimeType: 'application/xml', buffer: Buffer.from(xmlOf(file)) });
    await deploy.click();
    if (shown === 'refused') {
      await expect(dialog.getByRole('alert').filter({ hasText: '部署被拒绝' })).toContainText(
        'all-gateways.bpmn 不能部署: 流程引擎不能执行 ComplexGateway "汇总"',
      );
      await dialog.getByRole('button', { name: /删除文件|remove file/i }).click();
    }
  }
  await expect(page.getByText('部署成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  await expectDrawnByManager(page, 'lanes-executable.bpmn');
  expect(errors).toEqual([]);
});

for (const file of DEPLOYED) {
  test(`${file} is drawn whole by the deployed definition's 流程图`, async ({ page, baseURL }) => {
    const errors = watchErrors(page);
    const answer = await uploadThroughApi(baseURL!, file);
    if (answer.code === 200) await expectDrawnByManager(page, file);
    else {
      // refused by a stricter engine: with the file and an element named, and still drawn by the designer
      expect(answer.msg).toMatch(new RegExp(`^${file} 不能部署: .*"[^"]+"`));
      await expectDrawnByDesigner(page, baseURL!, file);
    }
    expect(errors).toEqual([]);
  });
}

for (const [file, { says, id }] of Object.entries(REFUSED)) {
  test(`${file} is drawn whole by the designer, and deploying it says which element the engine refuses`, async ({
    page,
    baseURL,
  }) => {
    const errors = watchErrors(page);
    const { modelKey, name } = await expectDrawnByDesigner(page, baseURL!, file, id);
    await rowActions(page, name)
      .getByRole('button', { name: /部\s*署/ })
      .click();
    const dialog = page.getByRole('dialog', { name: `部署模型「${name}」` });
    await expect(dialog.getByText('报销流程')).toBeVisible();
    await dialog.getByRole('button', { name: /部\s*署/ }).click();
    await expect(page.getByText(`${modelKey}.bpmn20.xml 不能部署: ${says}`)).toBeVisible();
    // refused: the dialog stays for another try, and nothing was deployed
    await expect(dialog).toBeVisible();
    await page.goto('/flow/manager/index');
    await searchList(page, '部署列表', { 流程标识: processOf(file).key });
    await expect(page.getByRole('region', { name: '部署列表' }).getByText('暂无数据')).toBeVisible();
    expect(errors).toEqual([]);
  });
}
