import type { ComponentType } from 'react';

/** A screen's module, loaded when its route is first opened (one chunk per page). */
export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;
