import type { Locator, Page } from '@playwright/test';

/** What the list pages' dialogs have in common, as a person uses them. */

/** The dialog's 保存 / Save button. */
export const save = (dialog: Locator) => dialog.getByRole('button', { name: /保\s*存|Save/ });

/**
 * Picks an option of an antd select (or tree select) by its visible text — exactly, or matching a pattern;
 * the first option when `option` is omitted — after typing `typed` into its search when given.
 */
export async function pick(page: Page, combobox: Locator, option?: string | RegExp, typed?: string) {
  await combobox.click();
  if (typed) await combobox.fill(typed);
  const dropdown = page.locator('.ant-select-dropdown:visible');
  const target =
    option === undefined
      ? dropdown.locator('.ant-select-item-option')
      : typeof option === 'string'
        ? dropdown.getByTitle(option, { exact: true })
        : dropdown.getByTitle(option);
  await target.first().click();
}

/** A day counted from today, as YYYY-MM-DD in Shanghai time (the browser's zone). */
export const day = (offset: number) =>
  new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);

/** Types a day into a date field of a dialog (its textbox by name) and confirms it. */
export async function fillDate(dialog: Locator, name: RegExp, value: string) {
  const box = dialog.getByRole('textbox', { name });
  await box.click();
  await box.fill(value);
  await box.press('Enter');
}
