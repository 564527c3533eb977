/**
 * An area overview's figures from its server route, read again whenever the page is shown and in the
 * screen's language (dictionary names arrive translated), kept under the resource's key so a saved row of
 * that resource refreshes them.
 */
import { useQuery } from '@tanstack/react-query';
import { getData } from '../http/client';
import { useLanguage } from '../i18n';

/**
 * The query key of an overview's figures: under the resource's key (`crud`, its key) so that a saved row
 * of it refreshes them; the URL too — one page may read several figures of one resource (the pests of today
 * and of 30 days).
 */
export const overviewKey = (url: string, resourceKey: string, language: string) => [
  'crud',
  resourceKey,
  'overview',
  url,
  language,
];

export function useOverview<T>(url: string, resourceKey: string) {
  const language = useLanguage((s) => s.language);
  return useQuery({
    queryKey: overviewKey(url, resourceKey, language),
    queryFn: () => getData<T>(url),
    refetchOnMount: 'always',
  });
}
