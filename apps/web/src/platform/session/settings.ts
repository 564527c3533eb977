import {
  type AppSettings,
  DEFAULT_TENANT_ID,
  DEFAULT_TIME_ZONE,
  DEFAULT_TOKEN_TIME,
} from '@smart/contracts/core';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { fetchSettings } from '../auth/api';
import { jsonStorage } from '../storage';

/** Spec §9 defaults, used until the server's settings arrive. */
export const DEFAULT_SETTINGS: AppSettings = {
  tenantMode: false,
  captchaMode: true,
  switchMode: false,
  tokenTime: DEFAULT_TOKEN_TIME,
  defaultTenantId: DEFAULT_TENANT_ID,
  timeZone: DEFAULT_TIME_ZONE,
};

interface SettingsState {
  settings: AppSettings;
  /** the server answered during this page load */
  loaded: boolean;
}

/** The server's modes (tenant, captcha, switch, token time); cached for the next start. */
export const useSettings = create<SettingsState>()(
  persist((): SettingsState => ({ settings: DEFAULT_SETTINGS, loaded: false }), {
    name: 'saber-settings',
    storage: jsonStorage('local'),
    partialize: (state) => ({ settings: state.settings }),
  }),
);

let pending: Promise<void> | null = null;

/** Loads the settings once per page load; resolves (never rejects) when done or failed. */
/** the deployment's time zone (the server's `TZ`), from the settings: kept here, with /login, so setting
 * the rules' "today" at start does not pull the time formatting (platform/time.ts) into /login */
export const deploymentZone = (): string => useSettings.getState().settings.timeZone || DEFAULT_TIME_ZONE;

export function loadSettings(): Promise<void> {
  pending ??= fetchSettings()
    .then((settings) => {
      useSettings.setState({ settings: { ...DEFAULT_SETTINGS, ...settings }, loaded: true });
    })
    .catch(() => {
      pending = null;
    });
  return pending ?? Promise.resolve();
}
