/** Dynamic imports shared by the router and by pages that warm a chunk up before navigating. */
import { CHUNK_LOAD_TIMEOUT_MS } from '@smart/contracts/core';

/** A chunk that does not arrive within 120 s fails (spec §8) instead of hanging forever. */
export function withTimeout<T>(load: () => Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('chunk load timeout')), ms);
      load().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}

export const loadLayout = withTimeout(() => import('./layout/Layout'));
export const loadPageHost = withTimeout(() => import('./layout/PageHost'));
/** the home workplace (/wel/index): warmed, and its answer asked for, while a sign-in is checked */
export const loadHomePage = withTimeout(() => import('../features/wel/WelcomePage'));
export const loadLogin = withTimeout(() => import('./login/LoginPage'));
