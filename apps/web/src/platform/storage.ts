import { createJSONStorage } from 'zustand/middleware';

/** Storage helpers that never throw (private mode, disabled storage, or no DOM in unit tests). */

function area(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string, kind: 'local' | 'session' = 'local'): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string, kind: 'local' | 'session' = 'local'): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    /* storage full or disabled: the in-memory state still works for this page */
  }
}

export function removeItem(key: string, kind: 'local' | 'session' = 'local'): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    /* ignore */
  }
}

/** A zustand `persist` storage (JSON) over localStorage or sessionStorage. */
export function jsonStorage(kind: 'local' | 'session' = 'local') {
  return createJSONStorage(() => ({
    getItem: (name: string) => readItem(name, kind),
    setItem: (name: string, value: string) => writeItem(name, value, kind),
    removeItem: (name: string) => removeItem(name, kind),
  }));
}

export function getCookie(name: string): string {
  if (typeof document === 'undefined') return '';
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return '';
}

/** A session cookie (no expiry: it ends with the browser session), path /, SameSite=Lax. */
export function setCookie(name: string, value: string): void {
  if (typeof document === 'undefined') return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and not everywhere yet
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; SameSite=Lax${secure}`;
}

export function removeCookie(name: string): void {
  if (typeof document === 'undefined') return;
  // biome-ignore lint/suspicious/noDocumentCookie: see setCookie
  document.cookie = `${encodeURIComponent(name)}=; path=/; SameSite=Lax; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
