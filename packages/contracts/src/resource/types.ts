/**
 * A resource definition: one entity, declared once, read by the server (routes, validation, access, SQL
 * whitelists) and by the web (search form, table, dialogs). See README § "How to add an entity".
 */

export interface Text2 {
  zh: string;
  en: string;
}

declare const DICT_CODE: unique symbol;
/**
 * The code of a declared dictionary, as a field names it. Only a declaration's handle gives one
 * (`dictCodes` in dicts.ts: `VILLAGE_DICT.ethnicity`), so a field cannot name a dictionary nobody declared.
 */
export type DictCode = string & { readonly [DICT_CODE]: true };

export type FieldType =
  | 'text' // single line, max length, optional pattern
  | 'textarea'
  | 'int'
  | 'decimal'
  | 'date' // YYYY-MM-DD
  | 'datetime' // YYYY-MM-DD HH:mm:ss
  | 'dict' // one key of a dictionary (dict: code)
  | 'dictMulti' // comma-joined keys of a dictionary
  | 'switch' // 0 / 1
  | 'mobile' // mainland mobile, spec §5 phone messages
  | 'phone' // a contact number: a mainland mobile or a landline with its area code (0731-84561234)
  | 'email'
  | 'ids' // comma-joined ids (e.g. menuId of a tenant package), picked from a tree
  | 'ref' // id of another resource (ref: key of that resource); lists answer its label as `<name less Id>Name`
  | 'refs' // comma-joined ids of another resource (ref), picked with the same searchable selector
  | 'idcard' // mainland resident ID number: 18 characters, GB 11643 check digit, a real birth date
  | 'gbDeviceId' // a video device's GB/T 28181 code: 20 digits, a province first, a camera/recorder type
  | 'creditCode' // a unified social credit code (统一社会信用代码): 18 characters, GB 32100 check character
  | 'image' // an image uploaded through the server (a path it serves), or several comma-joined
  | 'files' // attachments uploaded through the server (PDF, Word, Excel, PowerPoint, images), comma-joined
  | 'password' // typed in the browser, sent as lower-case md5 hex (spec §5), stored as argon2id
  | 'money' // an amount with at most 2 decimal places, in the field's unit (元 unless it names another)
  | 'dateRange' // from and to days, `YYYY-MM-DD,YYYY-MM-DD`, the start not after the end
  | 'geoPoint' // a place on the map: `longitude,latitude` in degrees
  | 'polygon' // an area on the map: a JSON array of at least 3 [longitude, latitude] corners
  | 'polyline' // a line on the map (a route): a JSON array of at least 2 [longitude, latitude] points, in order
  | 'json' // a JSON object or array (settings a device or a collector reads)
  | 'videoUrl' // a video a camera or platform serves: http(s), rtsp, rtmp or a path on this server
  | 'video' // a video file uploaded through the server (MP4 or WebM, checked by content): the path it issued
  | 'richText'; // formatted text (HTML), cleaned by the server to a safe subset before it is stored

/** How a field is searched: `equal` and `like` through the search form; the rest through suffixed query keys. */
export type SearchOp = 'equal' | 'like';

export interface FieldDef {
  /** API and form name (camelCase); the database column is its snake_case */
  name: string;
  label: Text2;
  type: FieldType;
  required?: boolean;
  /** the exact required message where the spec gives one; otherwise "<label> is required" */
  requiredMessage?: Text2;
  /** validate the required rule on blur (spec §5 parameter form) */
  requiredOnBlur?: boolean;
  max?: number;
  min?: number;
  /** a regular expression source the whole value must match */
  pattern?: string;
  patternMessage?: Text2;
  /** the dictionary of a dict / dictMulti field: a declared dictionary's handle (`SYSTEM_DICT.sex`) */
  dict?: DictCode;
  /** key of the referenced resource for ref */
  ref?: string;
  default?: string | number;
  /** shown in the search form with this operator */
  search?: SearchOp;
  /** shown as a table column (default true) */
  list?: boolean;
  /** answered by the detail only, never by a list or an export (a model's diagram: up to 2 MB a row) */
  detailOnly?: boolean;
  /** shown in the add/edit dialog (default true) */
  form?: boolean;
  /** may be sorted with ascs / descs (default: true for list columns) */
  sortable?: boolean;
  /** a valid value, shown as the placeholder's hint and used by generated tests */
  example?: string | number;
  /** the form control spans the dialog's full width */
  span?: 24 | 12;
  /** a tree the options come from (ref: pick one, ids: pick several): GET /api/dfem-system/<tree>/tree */
  tree?: 'menu' | 'dept' | 'role' | 'post' | 'region';
  /** written by the server only (e.g. computed values); never read from a body */
  readOnly?: boolean;
  /** write-only (a secret): never answered, filtered or sorted; an empty value on update keeps the old one */
  secret?: boolean;
  /**
   * a secret's stand-in in the answers, for clients whose form requires the field to save (the family's
   * client form): the same text sent back keeps the stored secret, as an empty value does
   */
  secretShown?: string;
  /** idcard: the fields whose values must agree with the number (birth date YYYY-MM-DD, sex dict 1/2) */
  agrees?: { birthDate?: string; sex?: string };
  /** date/datetime: the field of the record this one must not be before (a term's end and its start) */
  notBefore?: string;
  /**
   * date/datetime: a day to come is refused (a birthday, the day one joined, registered, or something
   * happened), counted in the deployment's day (`today.ts`); the pickers offer no later day
   */
  notAfterToday?: boolean;
  /**
   * required only when another field of the record says so (a plot held by a household names the
   * household): when that field's value is one of `is`, or, without `is`, when it is filled (`blank`:
   * when it is empty — one of two ways to give a video). Checked by `checkRecord` on both ends.
   */
  requiredWhen?: RequiredWhen;
  /** a number not more than another field's of the record (what is left of what was received) */
  notAbove?: { field: string; message?: Text2 };
  /** a column of the resource's Excel export, template and import (default: when it is a list column) */
  excel?: boolean;
  /**
   * a personal detail a public notice never shows in full (a bank account, health details): the notice
   * export masks it (text) or leaves it out (textarea). ID numbers and phones are masked by their kind.
   */
  personal?: boolean;
  /**
   * how the codes a text field holds read, when they come from a catalogue in code rather than a dictionary
   * (an alarm's metric `soilMoisture` reads 土壤含水量 / Soil moisture): lists and views show the label
   */
  labels?: Readonly<Record<string, Text2>>;
  /**
   * shown in the view (查看): by default a field of the form or of the list is (a value the server computes
   * and lists, such as a plot's area or a weighted total, included); true shows a computed value the list
   * leaves out (a statement's distribution), false hides one
   */
  view?: boolean;
  /**
   * a JSON value read as a table in the view: an array of objects, or an object whose entries are rows of
   * `key` and `value`; each declared column a key of a row, `ref` showing the names of the rows its ids
   * name (a score per rule: the rule's name), `type` its kind (money: an amount)
   */
  table?: readonly { key: string; label: Text2; ref?: string; type?: 'text' | 'int' | 'decimal' | 'money' }[];
  /** an int 0–100 that is a share done (a task's progress): lists and views show a progress bar with its % */
  percent?: boolean;
  /** the unit a number is in, shown beside it (kW, 亩, 元 …); money's default is 元 */
  unit?: Text2;
  /** a text that holds a unit word (亩, 头 …): shown in English mode through the unit words (units.ts) */
  unitWord?: boolean;
  /**
   * the field holding this one's English twin (a seeded menu's or role's `nameEn`): lists, views and
   * pickers show that one in English mode where it is set; this field keeps the name as written
   */
  english?: string;
  /**
   * kept beside the row, not in a column of its table: the binding's `hooks.beside` answers it and its
   * hooks write it (a plan's steps, rows of their own; the step a farming record ticked)
   */
  beside?: boolean;
  /** the rare column that does not follow from the kind (server platform/crud/model.ts `columnOf`) */
  column?: { kind: 'varchar' | 'text' | 'integer' | 'numeric' | 'date' | 'timestamp' | 'bigint' };
}

/** When a field is required by another field's value (`FieldDef.requiredWhen`). */
export interface RequiredWhen {
  /** the other field */
  field: string;
  /** the other field's values that make this one required (dictionary keys) */
  is?: readonly string[];
  /** without `is`: required when the other field is empty (instead of when it is filled) */
  blank?: boolean;
  /** what is said when it is missing (default: the field's required message) */
  message?: Text2;
}

/** The query keys of a list's page number and size, by the definition's `paging` (spec §7 conventions). */
export function pagingKeys(def: Pick<ResourceDef, 'paging'>): [page: string, size: string] {
  switch (def.paging) {
    case 'page':
      return ['page', 'size'];
    case 'currentPage':
      return ['currentPage', 'pageSize'];
    default:
      return ['current', 'size'];
  }
}

/** Excel import, export and template of a resource: `<path>/excel/import|export|template`. */
export interface ExcelDef {
  /** the file's name without extension */
  fileName: Text2;
  import?: boolean;
  export?: boolean;
  /**
   * a re-imported row whose value of this (unique) field — or these fields together — names a live row
   * updates that row instead of adding one (villager: idCard; a household's income: villagerId + year)
   */
  key?: string | string[];
  /**
   * the import's query parameter that asks for that update (users: `isCovered=1`); without it a key that
   * names a live row is refused as existing. Unset: a matching key always updates.
   */
  cover?: string;
  /** what the screen adds after an import that created rows (users: how new accounts get a password) */
  importedNote?: Text2;
  /**
   * a public notice of the rows (`<path>/excel/notice`, with the export's permission): the export's
   * columns with ID numbers, phones and `personal` fields masked (maskForNotice); its file's name
   */
  notice?: Text2;
  /** routes of the spec other than `<path>/excel/import|export|template` (users: `import-user` …) */
  paths?: { import: string; export: string; template: string };
}

export interface ResourceDef {
  /** unique key, also the data-scope resource code */
  key: string;
  label: Text2;
  /** API service prefix and path: routes live under /api/<service>/<path>/… */
  service: string;
  path: string;
  /** web route of its screen */
  route: string;
  /** button codes are `<permission>_add|_edit|_delete|_view` */
  permission: string;
  /** rows belong to a tenant (tenant_id column) */
  tenant: boolean;
  /**
   * platform rows (tenant false) that every tenant reads (list, detail) but only the platform tenant changes
   * (platform dictionaries): another tenant's submit and remove are 403
   */
  readByEveryTenant?: boolean;
  /** its database table, when the table is derived from this definition (platform/crud/model.ts) */
  table?: string;
  /** its menu's icon (an @ant-design/icons name); the menu, its route and buttons follow from this definition */
  icon?: string;
  fields: FieldDef[];
  /** the list endpoint's name: `list` (most system ones) or `page` */
  listPath?: 'list' | 'page';
  /** paging parameter names (spec §7 conventions) */
  paging?: 'current' | 'page' | 'currentPage';
  /**
   * rows the server alone writes (a log): listed and viewed, never added, edited or removed through the
   * API (submit and remove are 403 whatever the caller holds); its menu has the view button only
   */
  readOnly?: boolean;
  /**
   * rows that are added (the form, an Excel import, the server's own writes) and never edited or removed
   * through the API (a ledger: a correction is a new row): a submit with an id and every removal are 403
   * whatever the caller holds; its menu has the add, view and Excel buttons
   */
  appendOnly?: boolean;
  /**
   * false: rows are added and removed but never edited through the API (an exchange: a deal is cancelled
   * and made again); a submit with an id is 403 whatever the caller holds, and the menu has no edit button
   */
  editable?: boolean;
  /** whether the view button exists (tenant package: off) */
  view?: boolean;
  /**
   * the field whose value keys a row instead of a generated `id` (a region's division `code`): the table's
   * primary key is its column and rows are answered with `id` = its value. The detail takes the key as
   * `id` or under the field's name (`detail?code=`), removal routes take keys for ids, and every key that
   * arrives is checked by that field's rule. A submit with `id` edits that row; without one, the body's key
   * edits the row it names, or adds one when none is named. A key never changes once saved.
   */
  idField?: string;
  /**
   * a `ref` field whose row decides this one's reach (device alarms follow their device): a caller reaches
   * a row only while it reaches the row that field names — the referenced resource's constraint (its
   * tenant, live rows, the caller's data scope on it) is added to this one's on every read and write, and
   * so on every count, figure and dashboard that reads through it
   */
  scopeVia?: string;
  /** false: a removal deletes the rows (the table has no `is_deleted`) instead of marking them removed */
  softDelete?: boolean;
  /**
   * false: the table has no base columns (create and update user and time, status): nothing fills or answers
   * them, and a data scope by creator or department lets no row through. A time the rows need (a log's
   * `createTime`) is a field of its own.
   */
  baseColumns?: boolean;
  dialogWidth?: number;
  pageSize?: number;
  /**
   * what must be unique among live rows (within the tenant for tenant resources): a field, or several
   * fields together (`['stationId', 'effectiveFrom']`: one tariff version a station and day)
   */
  unique?: (string | string[])[];
  /** default order when none is asked for */
  defaultSort?: { field: string; desc?: boolean };
  /**
   * indexes a binding's own reads need beyond those the engine derives (the ledger's open lots of an
   * account): the fields in order (`-field`: descending) and, for a partial index, its condition over the
   * table's columns (the live rows' condition is added)
   */
  indexes?: readonly { name: string; fields: readonly string[]; where?: string }[];
  /** texts the screen shows after a save instead of 新增成功 / 更新成功 */
  savedMessage?: Text2;
  /** rows form a tree by parentId: the list answers nodes with children instead of a page */
  tree?: boolean;
  /** Excel import / export / template (button codes `<permission>_import|_export`) */
  excel?: ExcelDef;
  /**
   * How a row is picked by `ref` fields of other resources: the field that names it, and the fields a search
   * matches (GET <path>/select?keyword=&ids=).
   */
  select?: {
    label: string;
    search: string[];
    hint?: string;
    /**
     * more permission codes whose holders may read the picker (besides this resource's and those of the
     * resources that reference it): who starts or handles a process picks its approvers among the users
     */
    pickedBy?: readonly string[];
  };
  /**
   * rows written with each row of this one (a plan's steps): each a definition of its own, without a
   * menu, whose field `via` names the parent row. See the engine's child resources (platform/crud).
   */
  children?: readonly ChildDecl[];
}

/**
 * A child resource of a definition: rows that belong to one parent row (named by the child's field `via`),
 * sent and answered with it under `name`, checked by the child's own definition and written through the
 * child's write path; removing the parent removes them. The generic form edits them as a table.
 */
export interface ChildDecl {
  /** the key its rows are sent and answered under, beside the parent's fields (`steps`) */
  name: string;
  resource: ResourceDef;
  /** the child's field holding the parent's id (a `ref` to the parent, filled by the engine) */
  via: string;
  /** the rows' name as a whole: the form's group, the view's heading, an export's sheet (计划步骤) */
  label: Text2;
  /** one row, counted from 1, as messages and the form name it (`第{n}步`, `Step {n}`; the form spaces the number) */
  row: Text2;
  /** the form's button that adds a row (添加步骤) */
  add: Text2;
  /** at most this many rows with one parent (default 100) */
  max?: number;
}

export const BASE_FIELDS = [
  'id',
  'createUser',
  'createDept',
  'createTime',
  'updateUser',
  'updateTime',
  'status',
] as const;

/** A dictionary entry as declared (dicts.ts): its key and its value in both languages. */
export interface DictItemDecl {
  key: string;
  zh: string;
  en: string;
  /** e.g. the `flow` dictionary's form family (leave, expense) */
  remark?: string;
}

/** A dictionary as declared (dicts.ts `dictionary`): its code, its own name and its entries. */
export interface DictDecl<C extends string = string> {
  code: C;
  /** the dictionary's own name (its parent row's value) */
  label: Text2;
  items: readonly DictItemDecl[];
}

/** A screen of an area that is not a definition's list (an overview, the video wall, a monitor). */
export interface ScreenDecl {
  /** its menu code: the permission its calls ask for */
  code: string;
  label: Text2;
  /** its route (`/<area>/<screen>`); the web's page for it is `<path>/index` */
  path: string;
  /** its menu icon (an @ant-design/icons name the shell bundles) */
  icon: string;
}

/** A named count of an overview's chart (a dictionary's word and how many, a month and its total). */
export interface NamedCount {
  name: string;
  value: number;
}

/** What an overview's figures and charts are made from: each source's answer, by the source's name. */
export type OverviewAnswers = Record<string, unknown>;

/**
 * An area's overview (概览): a screen that is no definition's list, declared with its area and drawn by the
 * console's one overview page — a card of figures, then charts — from the answers of its sources, each a
 * GET the server mounts for it with the screen's code (`ServerArea.overview` computes the answer, within
 * the caller's reach of every resource it counts).
 */
export interface OverviewDecl extends ScreenDecl {
  /** the figures card's title */
  title: Text2;
  /**
   * the calls it reads, by name: the URL (`/api/<service>/…`), the resource whose saved rows make it read
   * again, and more menu codes that may read it beside the overview's (the screen a figure also serves)
   */
  sources: Readonly<Record<string, { url: string; watch: string; codes?: readonly string[] }>>;
  /** the figures, in order: a name and its value from the answers (a number, or text: 12.5%, ¥1,200.00) */
  figures: readonly {
    label: Text2;
    value: (a: OverviewAnswers, lang: 'zh' | 'en') => number | string | undefined;
  }[];
  /**
   * the charts, in order: a ring (`pie`) or bars (`bar`) of named counts, or grouped bars of several series
   * (`bars`: a name per category, a label and the values of each series); `wide` spans the whole row
   */
  charts: readonly OverviewChart[];
}

export type OverviewChart = {
  title: Text2;
  wide?: boolean;
} & (
  | {
      kind: 'pie' | 'bar';
      items: (a: OverviewAnswers, lang: 'zh' | 'en') => readonly NamedCount[];
      /** the bars' name in the legend (default: the title) */
      series?: Text2;
      color?: string;
      /** a ring's colours, in the order of its items */
      colors?: readonly string[];
    }
  | {
      kind: 'bars';
      categories: (a: OverviewAnswers) => readonly string[];
      series: readonly { label: Text2; values: (a: OverviewAnswers) => readonly number[]; color?: string }[];
    }
);

/** A figure an area shows on the home workplace: what it counts (rows of a resource) and its name. */
export interface HomeFigureDecl {
  key: string;
  label: Text2;
  /** the resource whose rows it counts (which rows: `ServerArea.home`), and whose screen it opens */
  resource: string;
  /** its place among every area's figures on the home (lower first; ties in the areas' order) */
  order: number;
}

/** A menu button beyond add / edit / delete / view: its code suffix (an endpoint's `codeSuffix`) and name. */
export interface ButtonDecl {
  code: string;
  label: Text2;
}

/**
 * A business area: one menu folder whose screens are its resources, in menu order, after the screens that
 * are not a definition's list. The menu seed, the dictionary seed, the web's pages and the generated tests
 * read it; a new area is one `defineArea` in its contracts file, listed once in `areas.ts`.
 */
export interface AreaDef {
  /** the folder's menu code and route prefix (`/<code>`) */
  code: string;
  label: Text2;
  /** the folder's icon */
  icon: string;
  /** screens that are not a definition's list, placed before the lists (an overview first) */
  screens?: readonly ScreenDecl[];
  /** the definitions with a screen of their own, in menu order (their children come along: `children`) */
  resources: ResourceDef[];
  /** a screen's buttons beyond add / edit / delete / view, by definition key */
  buttons?: Readonly<Record<string, readonly ButtonDecl[]>>;
  /** the dictionaries its fields name (a dictionary declared by several areas is created once) */
  dicts?: readonly DictDecl[];
  /** its overview, the folder's first screen (drawn by the one overview page) */
  overview?: OverviewDecl;
  /** its figures on the home workplace */
  home?: readonly HomeFigureDecl[];
}

/** Every definition of an area: its screens' and, under each, the children they are written with. */
export function areaResources(area: Pick<AreaDef, 'resources'>): ResourceDef[] {
  const out: ResourceDef[] = [];
  const add = (def: ResourceDef) => {
    if (out.includes(def)) return;
    out.push(def);
    for (const c of def.children ?? []) add(c.resource);
  };
  for (const def of area.resources) add(def);
  return out;
}

/** A text in both languages. */
export const L = (zh: string, en: string): Text2 => ({ zh, en });

/**
 * The definition builder of an area's resources: tenant rows served by `service` at their key, listed at
 * `page`, their screens under `/<routePrefix>/` — what every business area's definitions share.
 */
export const areaResource =
  (service: string, routePrefix: string) =>
  (
    key: string,
    table: string,
    icon: string,
    label: Text2,
    route: string,
    permission: string,
    fields: FieldDef[],
    extra: Partial<ResourceDef> = {},
  ): ResourceDef => ({
    key,
    table,
    icon,
    label,
    service,
    path: key,
    route: `/${routePrefix}/${route}`,
    permission,
    tenant: true,
    listPath: 'page',
    fields,
    ...extra,
  });

export const defineArea = (area: AreaDef): AreaDef => {
  for (const r of [...area.resources, ...(area.overview ? [area.overview] : []), ...(area.screens ?? [])]) {
    const route = 'route' in r ? r.route : r.path;
    if (!route.startsWith(`/${area.code}/`))
      throw new Error(
        `${'key' in r ? r.key : r.code}: a screen of area ${area.code} lives under /${area.code}/`,
      );
  }
  // a child without a screen of its own has no menu, hence no codes: it is read and written with its parent's
  for (const parent of areaResources(area))
    for (const c of parent.children ?? [])
      if (!area.resources.includes(c.resource) && c.resource.permission !== parent.permission)
        throw new Error(
          `${c.resource.key}: a child without a screen takes its parent's permission code (${parent.permission})`,
        );
  for (const key of Object.keys(area.buttons ?? {}))
    if (!area.resources.some((r) => r.key === key))
      throw new Error(`area ${area.code}: buttons of no screen ${key}`);
  return area;
};

/** A resource's routes below its service: `/<path>`, or the service's root when the path is empty (users). */
export const routePrefix = (def: Pick<ResourceDef, 'path'>): string => (def.path ? `/${def.path}` : '');

/**
 * A resource's Excel route below its service: `<path>/excel/<which>`, or the spec's own names where the
 * definition gives them (`excel.paths`: a user's `import-user` …); the import's progress sits beside it.
 */
export function excelPath(
  def: Pick<ResourceDef, 'path' | 'excel'>,
  which: 'import' | 'export' | 'template' | 'progress' | 'notice',
): string {
  const paths = def.excel?.paths;
  if (!paths || which === 'notice') return `${routePrefix(def)}/excel/${which}`;
  return which === 'progress'
    ? `${routePrefix(def)}/${paths.import}/progress`
    : `${routePrefix(def)}/${paths[which]}`;
}

/** A definition's unique keys, each as its fields (a single field is a set of one). */
export const uniqueSets = (def: Pick<ResourceDef, 'unique'>): string[][] =>
  (def.unique ?? []).map((u) => (Array.isArray(u) ? u : [u]));

/** How a taken unique key is named: 身份证号已存在; several fields: 所属电站+生效日期已存在. */
export const uniqueTaken = (def: Pick<ResourceDef, 'fields'>, set: string[]): Text2 => {
  const label = (lang: 'zh' | 'en') =>
    set.map((name) => def.fields.find((x) => x.name === name)!.label[lang]).join(lang === 'zh' ? '+' : ' + ');
  return { zh: `${label('zh')}已存在`, en: `${label('en')} already exists` };
};
