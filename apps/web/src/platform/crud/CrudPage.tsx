/**
 * The generic list page of spec §2, built from a resource definition: search form with a date range, table
 * with paging (10/30/50/100/200) or, for tree resources, the whole tree with expandable rows; add / edit
 * dialogs and a read-only view, row delete and batch delete, the Excel buttons of a resource that declares
 * them; each button shown only when its permission code is granted (the server checks again). Every field
 * is searched, listed, edited and read through its kind (kinds.tsx): dictionary words, reference names,
 * 是 / 否, images. Screens that are more than a list add toolbar buttons, row actions, a side panel, fixed
 * filters and field controls through the props instead of copying the page.
 *
 * The parts: useCrudList (what is listed, selection, refresh, delete), SearchForm, CrudToolbar, useColumns,
 * RecordDialog (add / edit), ViewDialog (查看).
 */
import { PAGE_SIZES, type ResourceDef } from '@smart/contracts/core';
import { App, Card, Table } from 'antd';
import { useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { currentLanguage } from '../i18n';
import { can, useSession } from '../session/session';
import { ContentScrollContext } from '../ui/contentScroll';
import { CrudToolbar } from './CrudToolbar';
import { useColumns } from './columns';
import './i18n';
import { RecordDialog } from './RecordDialog';
import { SearchForm } from './SearchForm';
import { useStickyHeader } from './stickyHeader';
import type { CrudPageProps, DialogMode, Row } from './types';
import { useCrudList } from './useCrudList';
import { ViewDialog } from './ViewDialog';

export type { CrudContext, CrudPageProps, DialogMode, FieldOverride, Row } from './types';

export function CrudPage(props: CrudPageProps) {
  const {
    def,
    enabled = true,
    idle,
    toolbar,
    rowActions,
    side,
    columns: columnOptions,
    fields: overrides,
    addDefaults,
    afterSave,
    detailView,
    search = true,
    dateRange = true,
    selectable,
  } = props;
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message } = App.useApp();
  // the header row stays in view while a long page scrolls (every list: 200 rows are a long page)
  const tableBox = useRef<HTMLDivElement>(null);
  useStickyHeader(tableBox, useContext(ContentScrollContext));
  useSession((s) => s.permission); // re-render when grants change
  const [dialog, setDialog] = useState<{
    mode: DialogMode;
    row?: Row;
    defaults?: Record<string, unknown>;
  } | null>(null);

  const code = def.permission;
  const writable = !props.frozen;
  const perms = {
    add: writable && can(`${code}_add`),
    edit: writable && can(`${code}_edit`),
    del: writable && can(`${code}_delete`),
    view: def.view !== false && can(`${code}_view`),
  };
  const fixed = props.fixedFilters ?? {};
  // a fixed filter is the side panel's to set, not the search form's
  const searchFields = search ? def.fields.filter((f) => f.search && !(f.name in fixed)) : [];
  const listFields = def.fields.filter((f) => f.list !== false && !f.secret && f.type !== 'password');
  const list = useCrudList({
    def,
    listUrl: props.listUrl,
    fixedFilters: props.fixedFilters,
    enabled,
    searchFields,
  });
  const rowName =
    props.rowName ?? ((row: Row) => String(row[listFields[0]?.name ?? 'id'] ?? row.id ?? '') || row.id);

  // rows without base columns have no creation time of their own (a log's time is a field of it)
  const shownColumns = def.baseColumns === false ? { ...columnOptions, createTime: false } : columnOptions;
  const columns = useColumns(listFields, shownColumns, {
    perms,
    addChild: list.tree && perms.add && def.fields.some((f) => f.name === 'parentId'),
    onView: (row) => setDialog({ mode: 'view', row }),
    onEdit: (row) => setDialog({ mode: 'edit', row }),
    onAddChild: (row) => setDialog({ mode: 'add', defaults: { ...addDefaults, parentId: row.id } }),
    onDelete: (row) => list.remove([row.id]),
    rowActions,
    moreActions: props.moreActions,
    rowName,
    ctx: list.ctx,
  });

  // a link to one record (a notice on the home: `state: { view: id }`) opens its view dialog over the list
  const location = useLocation();
  const viewId = (location.state as { view?: unknown } | null)?.view;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per arrival (the location's key), not per render
  useEffect(() => {
    if (typeof viewId === 'string' && viewId && perms.view && !detailView)
      setDialog({ mode: 'view', row: { id: viewId } });
  }, [location.key]);

  const close = () => setDialog(null);
  const dialogs =
    dialog &&
    (dialog.mode === 'view' && dialog.row ? (
      detailView ? (
        detailView(dialog.row, close)
      ) : (
        <ViewDialog
          def={def}
          row={dialog.row}
          overrides={overrides}
          render={columnOptions?.render}
          onClose={close}
        />
      )
    ) : dialog.mode !== 'view' ? (
      <RecordDialog
        def={def}
        mode={dialog.mode}
        row={dialog.row}
        defaults={dialog.defaults}
        overrides={overrides}
        childOverrides={props.childTables}
        beforeSubmit={props.beforeSubmit}
        submitPath={props.submitPath}
        onClose={close}
        onSaved={async (mode, saved) => {
          message.success(
            def.savedMessage ? def.savedMessage[lang] : t(mode === 'add' ? 'common.added' : 'common.updated'),
          );
          close();
          afterSave?.(mode, saved);
          await list.refresh();
        }}
      />
    ) : null);

  const main = (
    <Card variant="borderless" style={{ flex: 1, minWidth: 0 }} styles={{ body: { padding: 16 } }}>
      {(searchFields.length > 0 || (search && dateRange)) && (
        <SearchForm
          name={def.label[lang]}
          fields={searchFields}
          dateRange={dateRange}
          onSearch={list.search}
        />
      )}

      {!enabled ? (
        idle
      ) : (
        <>
          <CrudToolbar
            def={def}
            list={list}
            perms={perms}
            onAdd={() => setDialog({ mode: 'add', defaults: addDefaults })}
            extra={toolbar?.(list.ctx)}
          />
          <div ref={tableBox}>
            <Table<Row>
              className="crud-list"
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={list.records}
              loading={list.loading}
              // laid out to the page's width (only free text wraps: .crud-list), scrolling only when it cannot fit
              scroll={{ x: true }}
              rowSelection={
                perms.del || selectable
                  ? { selectedRowKeys: list.selected, onChange: (keys) => list.setSelected(keys as string[]) }
                  : undefined
              }
              expandable={
                list.tree
                  ? {
                      expandedRowKeys: list.expanded,
                      onExpandedRowsChange: (keys) => list.setExpanded(keys as string[]),
                    }
                  : undefined
              }
              locale={{ emptyText: t('common.empty') }}
              pagination={
                list.tree
                  ? false
                  : {
                      current: list.paging.current,
                      pageSize: list.paging.size,
                      total: list.total,
                      pageSizeOptions: PAGE_SIZES.map(String),
                      showSizeChanger: true,
                      showTotal: (total) => t('common.total', { total }),
                      onChange: list.changePage,
                    }
              }
            />
          </div>
        </>
      )}

      {dialogs}
    </Card>
  );

  if (!side) return main;
  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      {side}
      {main}
    </div>
  );
}

/** A lazy page module for a definition: its generic list page. */
export const pageOf = (def: ResourceDef) => () => <CrudPage def={def} />;
