/**
 * The custom-menu editor's operations, pure: the menu is WeChat's own JSON (`{ "button": [...] }`), a button is
 * chosen by its place (`{ i }` a top-level button, `{ i, j }` a sub-button), and every operation answers a new
 * menu (and where the choice moves to). A button's keys are written in one order — type, name, then the fields
 * its type needs (WX_MENU_TYPES) — so the JSON the editor shows is the JSON WeChat receives, byte for byte
 * (`wxMenuClean` keeps the written order).
 */
import { L, type Text2 } from '@smart/contracts/core';
import {
  utf8Bytes,
  WX_MENU_LIMITS,
  WX_MENU_TYPES,
  type WxMenu,
  type WxMenuButton,
  type WxMenuType,
  wxMenuClean,
  wxMenuProblem,
} from '@smart/contracts/wechat-rules';

export type { WxMenu, WxMenuButton, WxMenuType };

/** A button's place: `j` set for a sub-button. */
export interface MenuSel {
  i: number;
  j?: number;
}

/** The fields a button's action may carry besides type and name. */
export type ActionField = 'key' | 'url' | 'appid' | 'pagepath' | 'article_id';

export const MENU_TYPES = Object.keys(WX_MENU_TYPES) as WxMenuType[];

export const emptyMenu = (): WxMenu => ({ button: [] });

/** The button at `sel`, or undefined. */
export function buttonAt(menu: WxMenu, sel: MenuSel | null | undefined): WxMenuButton | undefined {
  if (!sel) return undefined;
  const top = menu.button[sel.i];
  return sel.j === undefined ? top : top?.sub_button?.[sel.j];
}

export const hasSubs = (b: WxMenuButton | undefined): boolean => (b?.sub_button?.length ?? 0) > 0;

/** A button of `type` named `name`, the type's fields in their order (values kept from `from` where it had them). */
export function shaped(type: WxMenuType, name: string, from: WxMenuButton = {}): WxMenuButton {
  const out: Record<string, string> = { type, name };
  for (const f of WX_MENU_TYPES[type]) out[f] = (from as Record<string, string | undefined>)[f] ?? '';
  return out as WxMenuButton;
}

const withTop = (menu: WxMenu, i: number, b: WxMenuButton): WxMenu => ({
  button: menu.button.map((x, k) => (k === i ? b : x)),
});

function replaceAt(menu: WxMenu, sel: MenuSel, b: WxMenuButton): WxMenu {
  if (sel.j === undefined) return withTop(menu, sel.i, b);
  const top = menu.button[sel.i];
  return withTop(menu, sel.i, {
    ...top,
    sub_button: (top.sub_button ?? []).map((x, k) => (k === sel.j ? b : x)),
  });
}

/** Whether another top-level button fits (at most 3). */
export const canAddTop = (menu: WxMenu) => menu.button.length < WX_MENU_LIMITS.buttons;
/** Whether another sub-button fits under button `i` (at most 5). */
export const canAddSub = (menu: WxMenu, i: number) =>
  i >= 0 && i < menu.button.length && (menu.button[i].sub_button?.length ?? 0) < WX_MENU_LIMITS.subButtons;

/** A new top-level button (a click button named `name`), chosen. */
export function addTop(menu: WxMenu, name: string): { menu: WxMenu; sel: MenuSel } {
  if (!canAddTop(menu)) return { menu, sel: { i: menu.button.length - 1 } };
  return { menu: { button: [...menu.button, shaped('click', name)] }, sel: { i: menu.button.length } };
}

/**
 * A new sub-button under button `i`, chosen. The first one makes `i` a parent: it keeps its name alone (WeChat
 * ignores a parent's action), so its action moves down to the new sub-button when it had one.
 */
export function addSub(menu: WxMenu, i: number, name: string): { menu: WxMenu; sel: MenuSel } {
  const top = menu.button[i];
  if (!top || !canAddSub(menu, i)) return { menu, sel: { i } };
  const subs = top.sub_button ?? [];
  const type = (
    subs.length === 0 && top.type && top.type in WX_MENU_TYPES ? top.type : 'click'
  ) as WxMenuType;
  const first = subs.length === 0 ? shaped(type, name, top) : shaped('click', name);
  return {
    menu: withTop(menu, i, { name: top.name ?? '', sub_button: [...subs, first] }),
    sel: { i, j: subs.length },
  };
}

/**
 * Removes the button at `sel`; where the choice goes next (a neighbour, the parent, or nothing). A parent whose
 * last sub-button goes becomes a click button again, its key to be filled in.
 */
export function removeAt(menu: WxMenu, sel: MenuSel): { menu: WxMenu; sel: MenuSel | null } {
  if (sel.j === undefined) {
    const button = menu.button.filter((_, k) => k !== sel.i);
    return { menu: { button }, sel: button.length ? { i: Math.min(sel.i, button.length - 1) } : null };
  }
  const top = menu.button[sel.i];
  const subs = (top?.sub_button ?? []).filter((_, k) => k !== sel.j);
  const next: WxMenuButton = subs.length ? { ...top, sub_button: subs } : shaped('click', top?.name ?? '');
  return {
    menu: withTop(menu, sel.i, next),
    sel: subs.length ? { i: sel.i, j: Math.min(sel.j, subs.length - 1) } : { i: sel.i },
  };
}

/** Whether the button at `sel` can move by `delta` places among its siblings. */
export function canMove(menu: WxMenu, sel: MenuSel, delta: -1 | 1): boolean {
  const n = sel.j === undefined ? menu.button.length : (menu.button[sel.i]?.sub_button?.length ?? 0);
  const at = sel.j ?? sel.i;
  return at + delta >= 0 && at + delta < n;
}

const swap = <T>(list: T[], a: number, b: number): T[] => {
  const out = [...list];
  [out[a], out[b]] = [out[b], out[a]];
  return out;
};

/** Moves the button at `sel` one place up (-1) or down (1) among its siblings; the choice follows it. */
export function move(menu: WxMenu, sel: MenuSel, delta: -1 | 1): { menu: WxMenu; sel: MenuSel } {
  if (!canMove(menu, sel, delta)) return { menu, sel };
  if (sel.j === undefined)
    return { menu: { button: swap(menu.button, sel.i, sel.i + delta) }, sel: { i: sel.i + delta } };
  const top = menu.button[sel.i];
  return {
    menu: withTop(menu, sel.i, { ...top, sub_button: swap(top.sub_button ?? [], sel.j, sel.j + delta) }),
    sel: { i: sel.i, j: sel.j + delta },
  };
}

/** The button at `sel` renamed (its keys keep their order). */
export function rename(menu: WxMenu, sel: MenuSel, name: string): WxMenu {
  const b = buttonAt(menu, sel);
  return b ? replaceAt(menu, sel, { ...b, name }) : menu;
}

/** The button at `sel` given another action type: the new type's fields, keeping the values it shares. */
export function retype(menu: WxMenu, sel: MenuSel, type: WxMenuType): WxMenu {
  const b = buttonAt(menu, sel);
  if (!b || hasSubs(b)) return menu;
  return replaceAt(menu, sel, shaped(type, b.name ?? '', b));
}

/** One action field of the button at `sel` set. */
export function setField(menu: WxMenu, sel: MenuSel, field: ActionField, value: string): WxMenu {
  const b = buttonAt(menu, sel);
  return b && !hasSubs(b) ? replaceAt(menu, sel, { ...b, [field]: value }) : menu;
}

/** How many bytes a field may hold at `sel` (a name: 16 top-level, 60 below), or undefined when WeChat sets none. */
export function byteLimit(field: 'name' | ActionField, sel: MenuSel): number | undefined {
  if (field === 'name') return sel.j === undefined ? WX_MENU_LIMITS.name : WX_MENU_LIMITS.subName;
  if (field === 'key') return WX_MENU_LIMITS.key;
  if (field === 'url' || field === 'pagepath') return WX_MENU_LIMITS.url;
  return undefined;
}

/** A value's size as WeChat counts it, and whether it is past its limit. */
export function bytesOf(value: string | undefined, limit: number | undefined) {
  const bytes = utf8Bytes(value ?? '');
  return { bytes, limit, over: limit !== undefined && bytes > limit };
}

/** `button[1].sub_button[0].name` → `{ sel: { i: 1, j: 0 }, field: 'name' }`; a path naming no button: null. */
export function selOfPath(path: string | undefined | null): { sel: MenuSel; field?: string } | null {
  const m = /^button\[(\d+)\](?:\.sub_button\[(\d+)\])?(?:\.(\w+))?/.exec(path ?? '');
  if (!m) return null;
  const sel: MenuSel = m[2] === undefined ? { i: Number(m[1]) } : { i: Number(m[1]), j: Number(m[2]) };
  return { sel, field: m[3] };
}

export const sameSel = (a: MenuSel | null | undefined, b: MenuSel | null | undefined): boolean =>
  !!a && !!b && a.i === b.i && a.j === b.j;

/** Whether `sel` is, or is under, the top-level button `i` (a problem of a sub-button marks its parent too). */
export const within = (sel: MenuSel | null | undefined, i: number) => !!sel && sel.i === i;

/** The menu as the JSON view shows it: WeChat's JSON (wxMenuClean), indented. */
export const menuText = (menu: WxMenu): string => JSON.stringify(wxMenuClean(menu), null, 2);

/** What WeChat receives: the same JSON on one line. */
export const menuWire = (menu: WxMenu): string => JSON.stringify(wxMenuClean(menu));

/** A value the editor can draw: buttons (and sub-buttons) that are objects with text values. */
function drawable(v: unknown): v is WxMenu {
  const isButton = (b: unknown): b is WxMenuButton =>
    typeof b === 'object' &&
    b !== null &&
    !Array.isArray(b) &&
    Object.entries(b).every(([k, x]) =>
      k === 'sub_button' ? Array.isArray(x) && x.every(isButton) : typeof x === 'string',
    );
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as WxMenu).button) &&
    (v as WxMenu).button.every(isButton)
  );
}

export type ParsedMenu = { menu: WxMenu } | { error: Text2; path?: string };

/**
 * The JSON view's text read back: the menu when it parses and passes WeChat's rules (`wxMenuProblem`), else
 * the parse error or the rule it breaks (with the button's path) — the editor keeps its state meanwhile.
 */
export function parseMenu(text: string): ParsedMenu {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const why = (e as Error).message;
    return { error: L(`JSON 格式错误:${why}`, `The JSON does not parse: ${why}`) };
  }
  const problem = wxMenuProblem(v);
  if (problem) return { error: problem.message, path: problem.path };
  if (!drawable(v))
    return { error: L('菜单须为 {"button": [...]} 格式', 'A menu is {"button": [...]}'), path: 'button' };
  return { menu: wxMenuClean(v) };
}

/** A menu answered by `wxMenu/list` (its `menuJson` text), or the empty menu when it has none readable. */
export function menuOf(menuJson: unknown): WxMenu {
  if (typeof menuJson !== 'string' || !menuJson) return emptyMenu();
  try {
    const v = JSON.parse(menuJson);
    return drawable(v) ? wxMenuClean(v) : emptyMenu();
  } catch {
    return emptyMenu();
  }
}
