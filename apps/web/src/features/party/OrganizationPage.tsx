/**
 * 党组织: the organisations' tree (the generic page of partyOrganization), its parent picked from the tree
 * itself: the top level or any node but the edited one and those below it (the server refuses them too).
 */
import './i18n';
import { partyOrganizationResource } from '@smart/contracts/party';
import { useQuery } from '@tanstack/react-query';
import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { FieldControlProps } from '../../platform/crud/types';
import { getData } from '../../platform/http/client';

interface OrgNode {
  id: string;
  name: string;
  children?: OrgNode[];
}
interface Option {
  value: string;
  title: string;
  disabled?: boolean;
  children?: Option[];
}

const useOrgTree = () =>
  useQuery({
    queryKey: ['crud', partyOrganizationResource.key, 'parent-tree'],
    queryFn: () =>
      getData<OrgNode[]>(`/api/${partyOrganizationResource.service}/${partyOrganizationResource.path}/page`),
  });

function findName(nodes: OrgNode[] | undefined, id: string): string | undefined {
  for (const n of nodes ?? []) {
    if (n.id === id) return n.name;
    const below = findName(n.children, id);
    if (below) return below;
  }
  return undefined;
}

function ParentSelect(props: FieldControlProps & { exclude?: string }) {
  const { t } = useTranslation();
  const { data, isLoading } = useOrgTree();
  const treeData = useMemo(() => {
    const map = (nodes: OrgNode[], off: boolean): Option[] =>
      nodes.map((n) => {
        const disabled = off || n.id === props.exclude;
        return {
          value: n.id,
          title: n.name,
          disabled,
          children: n.children?.length ? map(n.children, disabled) : undefined,
        };
      });
    return [{ value: '0', title: t('crud.topLevel'), children: map(Array.isArray(data) ? data : [], false) }];
  }, [data, props.exclude, t]);
  const value =
    props.value === undefined || props.value === null || props.value === '' ? undefined : String(props.value);
  return (
    <TreeSelect
      id={props.id}
      aria-label={props.placeholder}
      placeholder={props.placeholder}
      disabled={props.disabled}
      loading={isLoading}
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      style={{ width: '100%' }}
      value={value}
      onChange={(v) => props.onChange?.(v ?? '0')}
      treeData={treeData}
    />
  );
}

function ParentName({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const { data } = useOrgTree();
  const id = String(value ?? '0');
  return <>{id === '0' ? t('crud.topLevel') : (findName(Array.isArray(data) ? data : [], id) ?? id)}</>;
}

export default function OrganizationPage() {
  return (
    <CrudPage
      def={partyOrganizationResource}
      fields={{
        parentId: {
          control: (p) => <ParentSelect {...p} exclude={p.mode === 'edit' ? p.row?.id : undefined} />,
          view: (v) => <ParentName value={v} />,
        },
      }}
    />
  );
}
