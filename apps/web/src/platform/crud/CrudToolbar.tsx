/** The list page's toolbar: 新增, 批量删除, the Excel buttons, the screen's own, expand all, the selection, refresh. */
import { DeleteOutlined, NodeExpandOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@smart/contracts/core';
import { Button, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExcelToolbar } from './ExcelToolbar';
import { branchKeys } from './tree';
import type { CrudList } from './useCrudList';

export function CrudToolbar({
  def,
  list,
  perms,
  onAdd,
  extra,
}: {
  def: ResourceDef;
  list: CrudList;
  perms: { add: boolean; del: boolean };
  onAdd: () => void;
  /** the screen's own buttons */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { selected, expanded, setExpanded } = list;
  const allBranches = list.tree ? branchKeys(list.records) : [];
  return (
    <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
      <Space wrap>
        {perms.add && (
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={onAdd}>
            {t('common.add')}
          </Button>
        )}
        {perms.del && (
          <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => list.remove(selected)}>
            {t('crud.batchDelete')}
          </Button>
        )}
        {/* 导入 / 导出 / 下载模板 of a resource that declares them, each behind its permission code */}
        {def.excel && <ExcelToolbar def={def} ctx={list.ctx} />}
        {extra}
        {allBranches.length > 0 && (
          <Button
            icon={<NodeExpandOutlined aria-hidden />}
            onClick={() => setExpanded(expanded.length ? [] : allBranches)}
          >
            {t(expanded.length ? 'crud.collapseAll' : 'crud.expandAll')}
          </Button>
        )}
        {selected.length > 0 && (
          <span aria-live="polite">{t('crud.selected', { count: selected.length })}</span>
        )}
      </Space>
      <Tooltip title={t('common.refresh')}>
        <Button
          aria-label={t('common.refresh')}
          icon={<ReloadOutlined aria-hidden />}
          onClick={() => list.refresh()}
        />
      </Tooltip>
    </Space>
  );
}
