import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { FIRST_PAGE } from '@smart/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, type MenuProps } from 'antd';
import { type KeyboardEvent, memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { request } from '../../platform/http/client';
import { isClosable, type Tag, useTags } from '../../platform/session/tags';
import { dropPageCache, openDialog } from './ui';
import { activeTagValue, tagLabel, tagPath, useNavMenu } from './useNavMenu';

type Action = 'search' | 'closeOthers' | 'closeAll' | 'clearCache';

/** The id of the page area the tabs control. */
export const PAGE_AREA_ID = 'shell-page';

/**
 * The open pages (spec §2): closable unless only one is left (the home tab never, while first page is
 * off); right-click for clear cache / close others / close all; the dropdown also offers search.
 * A WAI-ARIA tab list: arrows move between tabs, Enter opens, Delete closes; the close icon is for the
 * mouse (a tab's children are presentational). Memoised: drawn on its own stores and location, not at
 * each render of the layout (see Layout).
 */
export const TagsBar = memo(function TagsBar() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const tags = useTags((s) => s.tags);
  const { entries } = useNavMenu();
  const active = activeTagValue(tags, pathname, search);
  const list = useRef<HTMLDivElement>(null);

  // keep the active tab in view
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the active tab or the list changes
  useEffect(() => {
    // after the frame is drawn: scrolling lays the page out, which the first frame would otherwise wait for
    const frame = requestAnimationFrame(() => {
      const el = list.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
      el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    });
    return () => cancelAnimationFrame(frame);
  }, [active, tags.length]);

  const go = (tag: Tag) => void navigate(tagPath(tag));

  const close = (value: string) => {
    const index = tags.findIndex((tag) => tag.value === value);
    if (index === -1 || !isClosable(tags[index], tags)) return;
    useTags.getState().remove(value);
    // the address as it is now: a click right after switching tabs may come before this bar re-renders
    const current = activeTagValue(tags, window.location.pathname, window.location.search);
    if (value === current) {
      const next = tags[index + 1] ?? tags[index - 1];
      if (next) go(next);
    }
  };

  const clearCache = () => {
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('tags.clearCacheConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await request('/api/dfem-auth/oauth/clear-cache');
        // every kept page and every cached answer starts again
        queryClient.removeQueries();
        dropPageCache();
        message.success(t('tags.cacheCleared'));
      },
    });
  };

  const run = (action: Action, value = active) => {
    if (action === 'search') openDialog('search');
    else if (action === 'clearCache') clearCache();
    else if (action === 'closeAll') {
      useTags.getState().closeAll();
      void navigate(FIRST_PAGE);
    } else if (action === 'closeOthers' && value) {
      useTags.getState().closeOthers(value);
      const tag = tags.find((x) => x.value === value);
      if (tag && value !== active) go(tag);
    }
  };

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const focus = (i: number) => {
      const all = list.current?.querySelectorAll<HTMLElement>('[role="tab"]');
      all?.[(i + tags.length) % tags.length]?.focus();
    };
    if (event.key === 'ArrowRight') focus(index + 1);
    else if (event.key === 'ArrowLeft') focus(index - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(tags.length - 1);
    else if (event.key === 'Enter' || event.key === ' ') go(tags[index]);
    else if (event.key === 'Delete') close(tags[index].value);
    else return;
    event.preventDefault();
  };

  const contextItems: MenuProps['items'] = [
    { key: 'clearCache', label: t('tags.clearCache') },
    { key: 'closeOthers', label: t('tags.closeOthers') },
    { key: 'closeAll', label: t('tags.closeAll') },
  ];
  const moreItems: MenuProps['items'] = [{ key: 'search', label: t('common.search') }, ...contextItems];

  return (
    <div className="shell-tags">
      <div ref={list} role="tablist" aria-label={t('tags.label')} className="shell-tags-list">
        {tags.map((tag, index) => {
          const selected = tag.value === active;
          const closable = isClosable(tag, tags);
          return (
            <Dropdown
              key={tag.value}
              trigger={['contextMenu']}
              menu={{ items: contextItems, onClick: ({ key }) => run(key as Action, tag.value) }}
            >
              <div
                role="tab"
                aria-selected={selected}
                aria-controls={PAGE_AREA_ID}
                tabIndex={selected ? 0 : -1}
                className="shell-tag"
                data-value={tag.value}
                onClick={() => go(tag)}
                onKeyDown={(e) => onKeyDown(e, index)}
              >
                <span>{tagLabel(tag, t, entries)}</span>
                {closable && (
                  <span
                    aria-hidden="true"
                    className="shell-tag-close"
                    title={t('common.close')}
                    onClick={(e) => {
                      e.stopPropagation();
                      close(tag.value);
                    }}
                  >
                    <CloseOutlined />
                  </span>
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      <Dropdown trigger={['click']} menu={{ items: moreItems, onClick: ({ key }) => run(key as Action) }}>
        <Button size="small" type="text" aria-label={t('tags.menu')} icon={<DownOutlined />} />
      </Dropdown>
    </div>
  );
});
