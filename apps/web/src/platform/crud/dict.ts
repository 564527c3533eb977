import type { DictEntry } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { getData } from '../http/client';
import { useLanguage } from '../i18n';

/**
 * A dictionary's entries, fetched once per code and language and shared by every select and column that
 * uses it: the server answers the values in the request's language, so a switch of language asks again.
 */
export function useDict(code: string | undefined) {
  const language = useLanguage((s) => s.language);
  return useQuery({
    queryKey: ['dict', code, language],
    queryFn: () => getData<DictEntry[]>('/api/dfem-system/dict/dictionary', { code }),
    enabled: !!code,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

export interface TreeOption {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  children?: TreeOption[];
}

/** Option trees for `ids` fields (menus of a tenant package…), fetched once per source and language. */
export function useOptionTree(source: string | undefined) {
  // the server names menus in the request's language: a switch of language asks again
  const language = useLanguage((s) => s.language);
  return useQuery({
    queryKey: ['tree', source, language],
    queryFn: () => getData<TreeOption[]>(`/api/dfem-system/${source}/tree`),
    enabled: !!source,
    staleTime: 60_000,
  });
}
