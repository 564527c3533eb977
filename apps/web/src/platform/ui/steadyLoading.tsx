/**
 * antd's default button spinner leaves through a CSS width transition and is removed only when that
 * transition reports its end. On a busy machine the end can be missed: the invisible spinner stays in
 * the button, whose accessible name then reads "loading 部 署" although it is idle. A loading icon given
 * explicitly is shown and removed without that transition, so the console's buttons (through the
 * ConfigProvider) use this one.
 */
import { LoadingOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

export const STEADY_LOADING_ICON = <LoadingOutlined />;

/** A Button `loading` value that uses the steady icon. */
export function steadyLoading(loading: boolean): false | { icon: ReactNode } {
  return loading ? { icon: STEADY_LOADING_ICON } : false;
}
