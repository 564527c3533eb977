/** The shapes the generic list page and the screens that extend it share. */
import type { FieldDef, ResourceDef } from '@smart/contracts/core';
import type { Rule } from 'antd/es/form';
import type { ColumnsType } from 'antd/es/table';
import type { FocusEvent, ReactNode } from 'react';
import type { MoreAction } from './columns';

export type Row = { id: string; children?: Row[] } & Record<string, unknown>;
export type DialogMode = 'add' | 'edit' | 'view';

/** What a form control receives: the form hands it value, onChange and id. */
export interface FieldControlProps {
  field: FieldDef;
  /** the key of the definition the field belongs to: what an upload says it is for (`?resource=&field=`) */
  resource?: string;
  placeholder: string;
  disabled?: boolean;
  value?: unknown;
  onChange?: (v: unknown) => void;
  id?: string;
  secretHint?: string;
  /** a tree ref: this node and its subtree cannot be picked (a row cannot be its own parent) */
  exclude?: string;
  /** the form's blur trigger (fields validated on blur) */
  onBlur?: (e: FocusEvent) => void;
  /** the control's accessible name when it is not its placeholder (a cell of a child row: 第 3 步 计划日期) */
  label?: string;
  /**
   * a reference that is a unique key on its own (`<resource>.<field>`: a villager is a party member once): its
   * picker offers only rows no other record names yet
   */
  unusedBy?: string;
}

/** What a screen's extra toolbar buttons and row actions can use. */
export interface CrudContext {
  selectedIds: string[];
  /** the selected rows of the current page (or tree) */
  selectedRows: Row[];
  /** the list's current filters (fixed ones included), as sent */
  filters: Record<string, string>;
  refresh: () => Promise<void>;
  clearSelection: () => void;
}

/** A screen's changes to one field of the add / edit / view dialog. */
export interface FieldOverride {
  /** replaces the form control (value, onChange and id come from the form) */
  control?: (props: FieldControlProps & { mode: DialogMode; row?: Row }) => ReactNode;
  /** replaces the read-only value of the view dialog (default: the column's renderer, then the kind's) */
  view?: (value: unknown, row: Row) => ReactNode;
  /** hides the field while true (evaluated on every change of the form; in the view, on the record) */
  hidden?: (values: Record<string, unknown>, mode: DialogMode) => boolean;
  /** the control is read-only in these modes */
  disabledIn?: DialogMode[];
  /** rules added to the definition's */
  rules?: Rule[];
}

export interface CrudPageProps {
  def: ResourceDef;
  /** the list endpoint when it is not `<base>/<listPath>` (e.g. dict/parent-list) */
  listUrl?: string;
  /** filters always sent (a side panel's choice: deptId, menuId, parentId) */
  fixedFilters?: Record<string, string>;
  /** false: nothing to list yet; `idle` is shown instead of the table */
  enabled?: boolean;
  idle?: ReactNode;
  /** extra toolbar buttons, after add, batch delete and the Excel buttons */
  toolbar?: (ctx: CrudContext) => ReactNode;
  /** extra actions of a row, after 查看 / 编辑 (its own verbs, shown as they are) */
  rowActions?: (row: Row, ctx: CrudContext) => ReactNode;
  /**
   * a row's secondary actions, after 新增下级 and 删除: links while the row has few actions, items of its one
   * 更多 menu past INLINE_ACTIONS (columns.tsx)
   */
  moreActions?: (row: Row, ctx: CrudContext) => MoreAction[];
  /** a panel beside the list (e.g. the users' dept tree) */
  side?: ReactNode;
  columns?: {
    /** cell renderers by field name (also the view dialog's value unless the field overrides it) */
    render?: Record<string, (value: unknown, row: Row) => ReactNode>;
    /** columns after the definition's */
    extra?: ColumnsType<Row>;
    /** the creation time column (default shown) */
    createTime?: boolean;
  };
  fields?: Record<string, FieldOverride>;
  /** initial values of the add dialog, over the definition's defaults */
  addDefaults?: Record<string, unknown>;
  /**
   * the route the dialog saves through, below the resource's path: `submit`, or a name the binding answers
   * as submit (`submitAliases`: the family's `upsert`)
   */
  submitPath?: string;
  /** adjusts the body before it is sent */
  beforeSubmit?: (body: Record<string, unknown>, mode: DialogMode, row?: Row) => Record<string, unknown>;
  /** after a save, with the server's answer (e.g. what it tells only once, such as an initial password) */
  afterSave?: (mode: DialogMode, saved: Row) => void;
  /** replaces the view dialog (e.g. a detail drawer) */
  detailView?: (row: Row, close: () => void) => ReactNode;
  /** the search form (default shown) and its date range (default shown) */
  search?: boolean;
  dateRange?: boolean;
  /** the rows are frozen (a published evaluation): no add, edit or delete whatever the grants say */
  frozen?: boolean;
  /** rows are selectable even without the delete permission (for toolbar actions) */
  selectable?: boolean;
  /** a row's name for screen readers and confirmations (default: the first list field) */
  rowName?: (row: Row) => string;
  /** a child table's additions (by the declaration's name): what each row shows after its controls */
  childTables?: Record<string, { rowExtra?: (row: Row) => ReactNode }>;
}
