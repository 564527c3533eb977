import type { MenuNode } from '@smart/contracts';

/**
 * What the family's own console (Saber 4.x, vue2) is answered under other names than ours — names only,
 * never more rows, codes or fields: the menus and buttons it is sent are the caller's grants, read and
 * checked exactly as for our console, and only their `path` and `source` are renamed here.
 *
 * Who is the family's client: the token says so (`ctr: 'family'`, `RequestContext.familyClient`), set when
 * it was issued on the family's sign-in path (`POST /api/dfem-auth/token`, camel-case query, envelope answer)
 * and not on the spec's (`POST /api/dfem-auth/oauth/token`, which our web app uses). The client id cannot
 * tell them apart: both consoles sign in as `saber`, as the family's configuration ships. A refresh takes the
 * contract of the path it is asked on, so a family session stays the family's.
 *
 * Why renaming: the family's router builds a screen from the menu's path (`views<path>.vue`) and draws the
 * menu's `source` as a CSS class (`<i :class="source">`, its icon fonts `iconfont icon…` and Element's
 * `el-icon-…`); our web app reads our paths and antd icon names. The stored menu rows keep ours (the menu
 * screen shows and saves what is stored, in either console).
 */

/** Our menu code → the family's path for the same screen (where it differs) and an icon of its icon set. */
export const FAMILY_MENUS: Readonly<Record<string, { ours: string; path?: string; source: string }>> = {
  // folders: the family's router draws them as sub-menus; only their icon shows
  desk: { ours: '/desk', source: 'iconfont iconicon_airplay' },
  system: { ours: '/system', source: 'iconfont iconicon_setting' },
  authority: { ours: '/authority', source: 'iconfont iconicon_safety' },
  log: { ours: '/log', path: '/monitor/log', source: 'iconfont iconicon_doc' },
  tool: { ours: '/tool', source: 'iconfont icon-wxbgongju' },
  // screens both consoles have: the family's `src/views/<path>.vue`
  notice: { ours: '/desk/notice', source: 'iconfont iconicon_sms' },
  user: { ours: '/system/user', source: 'iconfont iconicon_principal' },
  dept: { ours: '/system/dept', source: 'iconfont iconicon_group' },
  role: { ours: '/system/role', path: '/authority/role', source: 'iconfont iconicon_boss' },
  menu: { ours: '/system/menu', source: 'iconfont iconicon_subordinate' },
  post: { ours: '/system/post', source: 'iconfont iconicon_message' },
  topmenu: { ours: '/system/topmenu', source: 'iconfont icon-daohanglanmoshi02' },
  param: { ours: '/system/param', source: 'iconfont iconicon_community_line' },
  client: { ours: '/system/client', source: 'iconfont iconicon_mobilephone' },
  tenant: { ours: '/system/tenant', source: 'iconfont icon-quanxian' },
  dict: { ours: '/system/dict', source: 'iconfont iconicon_addresslist' },
  region: { ours: '/system/region', path: '/base/region', source: 'iconfont iconicon_GPS' },
  data_scope: { ours: '/authority/datascope', source: 'iconfont icon-shujuzhanshi2' },
  log_usual: { ours: '/log/usual', path: '/monitor/log/usual', source: 'iconfont icon-rizhi' },
  log_api: { ours: '/log/api', path: '/monitor/log/api', source: 'iconfont icon-rizhi1' },
  log_error: { ours: '/log/error', path: '/monitor/log/error', source: 'iconfont icon-bug' },
  report: { ours: '/tool/report', path: '/report/reportlist', source: 'iconfont icon-biaoge' },
};

/** The family's own default menu icon (what its client draws for a menu without one). */
export const FAMILY_DEFAULT_ICON = 'iconfont icon-caidan';

/** An icon the family's client can draw: one of its icon-font classes or an Element icon. */
export const isFamilyIcon = (source: string) => /^(?:iconfont\s+icon\S*|el-icon-[a-z0-9-]+)$/.test(source);

/**
 * A menu's icon for the family: one it can draw is kept (an administrator may have chosen it), a screen of
 * the table gets the table's, any other (an antd name) the family's default.
 */
function familyIcon(code: string, source: string): string {
  if (isFamilyIcon(source)) return source;
  return FAMILY_MENUS[code]?.source ?? FAMILY_DEFAULT_ICON;
}

/**
 * The menu tree as the family's client reads it: the family's path where the table names one and the row
 * still has our path (a path an administrator changed is theirs), icons it can draw. Same nodes, same order.
 */
export function familyMenuTree(nodes: MenuNode[]): MenuNode[] {
  return nodes.map((n) => {
    const entry = FAMILY_MENUS[n.code];
    return {
      ...n,
      path: entry?.path && n.path === entry.ours ? entry.path : n.path,
      source: familyIcon(n.code, n.source),
      children: familyMenuTree(n.children),
    };
  });
}

/** A top menu's icon for the family (top menus are administrators' rows: only the icon is renamed). */
export const familyTopMenuIcon = (source: string | null) =>
  source && isFamilyIcon(source) ? source : FAMILY_DEFAULT_ICON;

/**
 * The avatar of a user without one, for the family's client, which draws `avatar` as an `<img>` (an empty
 * string is a broken image): a small picture the server itself serves (public, as every avatar is). Our
 * web app draws its own placeholder and is answered the empty value. Sent back by the family's profile
 * form, it means "no avatar" (`user/update-info`).
 */
export const FAMILY_DEFAULT_AVATAR = '/api/dfem-resource/avatar/default.svg';

export const familyAvatar = (avatar: string | null | undefined) => avatar || FAMILY_DEFAULT_AVATAR;

/** The default avatar: a head and shoulders on a light disc, 64 × 64. */
export const DEFAULT_AVATAR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
  '<circle cx="32" cy="32" r="32" fill="#dfe4ea"/>' +
  '<circle cx="32" cy="25" r="11" fill="#a4b0be"/>' +
  '<path d="M12 54c3-10 11-15 20-15s17 5 20 15a31 31 0 0 1-40 0z" fill="#a4b0be"/>' +
  '</svg>';
