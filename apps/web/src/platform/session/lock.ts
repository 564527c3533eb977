import { FIRST_PAGE, LOCK_PAGE } from '@smart/contracts/core';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';

interface LockState {
  isLock: boolean;
  lockPasswd: string;
  /** the page (path and query) the screen was locked from: unlocking returns there */
  from: string;
  setPassword: (password: string) => void;
  lock: (from?: string) => void;
  clear: () => void;
}

/** Screen lock: flag and password live in sessionStorage only (spec §3). Cleared on sign-in. */
export const useLock = create<LockState>()(
  persist(
    (set) => ({
      isLock: false,
      lockPasswd: '',
      from: '',
      setPassword: (lockPasswd) => set({ lockPasswd }),
      lock: (from = '') => set({ isLock: true, from }),
      clear: () => set({ isLock: false, lockPasswd: '', from: '' }),
    }),
    {
      name: 'saber-lock',
      storage: jsonStorage('session'),
      partialize: (s) => ({ isLock: s.isLock, lockPasswd: s.lockPasswd, from: s.from }),
    },
  ),
);

/**
 * Where unlocking goes: back to the page locked from when that is a page of this app (a path, not another
 * site, not the lock page itself), else home.
 */
export function unlockTarget(from: string | undefined): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from.includes('\\')) return FIRST_PAGE;
  return from.split(/[?#]/)[0] === LOCK_PAGE ? FIRST_PAGE : from;
}
