/** A checkable tree of a grant dialog (role permissions, top-menu menus): parents conduct to children. */
import { Empty, Tree } from 'antd';
import { useMemo } from 'react';
import { switcherIcon } from '../../platform/crud/a11y';
import type { TreeOption } from '../../platform/crud/dict';
import { stripEmptyChildren } from '../../platform/crud/tree';

export function GrantTree({
  data,
  checked,
  onChange,
  label,
}: {
  data: TreeOption[] | undefined;
  /** the fully checked keys (see checkedForDisplay) */
  checked: string[];
  onChange: (checked: string[]) => void;
  /** accessible name of the tree */
  label: string;
}) {
  const nodes = useMemo(() => stripEmptyChildren(data ?? []), [data]);
  const topKeys = useMemo(() => nodes.map((n) => n.key), [nodes]);
  if (!nodes.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <div style={{ maxHeight: 460, overflow: 'auto', padding: '4px 0' }}>
      <Tree
        switcherIcon={switcherIcon}
        aria-label={label}
        checkable
        selectable={false}
        defaultExpandedKeys={topKeys}
        checkedKeys={checked}
        onCheck={(keys) => onChange((Array.isArray(keys) ? keys : keys.checked).map(String))}
        treeData={nodes}
        fieldNames={{ title: 'title', key: 'key', children: 'children' }}
      />
    </div>
  );
}
