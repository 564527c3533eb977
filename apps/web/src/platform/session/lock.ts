import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';

interface LockState {
  isLock: boolean;
  lockPasswd: string;
  setPassword: (password: string) => void;
  lock: () => void;
  clear: () => void;
}

/** Screen lock: flag and password live in sessionStorage only (spec §3). Cleared on sign-in. */
export const useLock = create<LockState>()(
  persist(
    (set) => ({
      isLock: false,
      lockPasswd: '',
      setPassword: (lockPasswd) => set({ lockPasswd }),
      lock: () => set({ isLock: true }),
      clear: () => set({ isLock: false, lockPasswd: '' }),
    }),
    {
      name: 'saber-lock',
      storage: jsonStorage('session'),
      partialize: (s) => ({ isLock: s.isLock, lockPasswd: s.lockPasswd }),
    },
  ),
);
