import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';

/**
 * Issue 14: trees of our own console expand — the data scope screen's menu tree, the department tree and
 * the lazily loaded region tree (whose nodes say whether they have children: a leaf has no switcher).
 */
test.use({ storageState: authFile() });

/** A node of an antd tree by its exact title. */
const treeNode = (tree: Locator, title: string) =>
  tree.locator('.ant-tree-treenode').filter({ has: tree.page().getByTitle(title, { exact: true }) });

async function toggle(tree: Locator, title: string) {
  await treeNode(tree, title).locator('.ant-tree-switcher').click();
}

/** A row of the page's table by its first column (the tree column also holds the expand button). */
function tableRow(page: Page, name: string) {
  return page
    .getByRole('main')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: new RegExp(`^(?:展开行 |关闭行 |收起行 )?${name}$`) }) });
}

test('data scopes: the menu tree collapses and expands, and a menu picks its scopes', async ({ page }) => {
  await page.goto('/authority/datascope/index');
  const tree = page.locator('[aria-labelledby="scope-menu-title"]');
  await expect(treeNode(tree, '系统管理')).toBeVisible();
  await expect(treeNode(tree, '菜单管理')).toBeVisible();
  await toggle(tree, '系统管理');
  await expect(treeNode(tree, '菜单管理')).toBeHidden();
  await toggle(tree, '系统管理');
  await expect(treeNode(tree, '菜单管理')).toBeVisible();
  const listed = page.waitForRequest(
    (r) => r.url().includes('/api/dfem-system/data-scope/list') && r.url().includes('menuId='),
  );
  await tree.getByTitle('菜单管理', { exact: true }).click();
  await listed;
});

test('departments: the tree table expands level by level', async ({ page }) => {
  await page.goto('/system/dept/index');
  const root = tableRow(page, '智慧乡村');
  await expect(root).toBeVisible();
  const ops = tableRow(page, '运营部');
  if (!(await ops.isVisible())) await root.getByRole('button', { name: /展开行|Expand row/ }).click();
  await expect(ops).toBeVisible();
  const team = tableRow(page, '村务组');
  await expect(team).toBeHidden();
  await ops.getByRole('button', { name: /展开行|Expand row/ }).click();
  await expect(team).toBeVisible();
  // a leaf has nothing to expand
  await expect(team.getByRole('button', { name: /展开行|Expand row/ })).toHaveCount(0);
});

test('regions: the lazy tree loads children on expanding, down to a leaf', async ({ page }) => {
  await page.goto('/system/region/index');
  const tree = page.locator('[aria-labelledby="region-tree-title"]');
  await expect(treeNode(tree, '贵州省')).toBeVisible();
  const loaded = page.waitForResponse(
    (r) => r.url().includes('/region/lazy-tree') && r.url().includes('parentCode=52'),
  );
  await toggle(tree, '贵州省');
  await loaded;
  await expect(treeNode(tree, '黔东南苗族侗族自治州')).toBeVisible();
  await toggle(tree, '黔东南苗族侗族自治州');
  await expect(treeNode(tree, '雷山县')).toBeVisible();
  await toggle(tree, '雷山县');
  await expect(treeNode(tree, '丹江镇')).toBeVisible();
  await toggle(tree, '丹江镇');
  const village = treeNode(tree, '南门社区居民委员会');
  await expect(village).toBeVisible();
  // a village has no divisions below it: drawn as a leaf, no switcher to press
  await expect(village.locator('.ant-tree-switcher-noop')).toHaveCount(1);
});
