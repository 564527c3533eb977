/**
 * Icons that must not become part of accessible names: antd icons carry an aria-label (e.g. "caret-down"),
 * which a tree node or a button would otherwise read out before its text.
 */
import { CaretDownOutlined } from '@ant-design/icons';

/** The expand / collapse icon of trees and tree selects (antd rotates it when collapsed). */
export const switcherIcon = <CaretDownOutlined aria-hidden />;
