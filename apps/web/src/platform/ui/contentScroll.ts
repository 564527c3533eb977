import { createContext } from 'react';

/** The element that scrolls the pages (the layout's content area), once it is mounted. */
export const ContentScrollContext = createContext<HTMLElement | null>(null);
