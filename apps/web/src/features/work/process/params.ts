/** The params of a process page, leaving it, and whether the caller may start a process. */
import '../i18n';
import type { Page } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { getData } from '../../../platform/http/client';
import { useTags } from '../../../platform/session/tags';
import { matchPattern } from '../../../shell/guard';
import { FLOW_API } from '../../flow/api';

/** The page's own params (a kept-alive page keeps its own location while hidden). */
export function usePatternParams<K extends string>(pattern: string): Partial<Record<K, string>> {
  const { pathname } = useLocation();
  return (matchPattern(pattern, pathname) ?? {}) as Partial<Record<K, string>>;
}

/** Goes to `to` and closes this page's tab: a submitted form or a handled task has nothing left to show. */
export function useLeavePage() {
  const navigate = useNavigate();
  const location = useLocation();
  return (to: string) => {
    const here = location.pathname + location.search;
    navigate(to);
    useTags.getState().remove(here);
  };
}

/** A definition the user may start, from start-list (a form's path carries only its id). */
export function useStartable(processDefinitionId: string | undefined) {
  const startable = useQuery({
    queryKey: ['flow-startable'],
    queryFn: () =>
      getData<
        Page<{
          processDefinitionId: string;
          processDefinitionName: string;
          processDefinitionVersion: number;
          categoryName: string;
        }>
      >(`${FLOW_API}/work/start-list`, { current: 1, size: 200 }),
    staleTime: 60_000,
  });
  return startable.data?.records.find((r) => r.processDefinitionId === processDefinitionId);
}
