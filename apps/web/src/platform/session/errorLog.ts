import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';
import { WEBSITE } from './website';

/** One client error (spec §3 error log list). */
export interface ClientErrorEntry {
  type: string;
  message: string;
  stack: string;
  info: string;
  url: string;
  /** local time, YYYY-MM-DD HH:mm:ss */
  time: string;
}

interface ErrorLogState {
  logs: ClientErrorEntry[];
}

/** Uncaught errors and rejected promises of this browser, newest first, persisted (spec §8). */
export const useErrorLog = create<ErrorLogState>()(
  persist((): ErrorLogState => ({ logs: [] }), {
    name: 'saber-error-log',
    storage: jsonStorage('local'),
    merge: (persisted, current) => {
      const logs = (persisted as Partial<ErrorLogState> | undefined)?.logs;
      return { ...current, logs: Array.isArray(logs) ? logs.slice(0, WEBSITE.errorLogMax) : [] };
    },
  }),
);

const pad = (n: number) => String(n).padStart(2, '0');

export function formatTime(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function describe(reason: unknown): { message: string; stack: string; name: string } {
  if (reason instanceof Error) {
    return { message: reason.message || reason.name, stack: reason.stack ?? '', name: reason.name };
  }
  if (typeof reason === 'string') return { message: reason, stack: '', name: '' };
  try {
    return { message: JSON.stringify(reason) ?? String(reason), stack: '', name: '' };
  } catch {
    return { message: String(reason), stack: '', name: '' };
  }
}

/** Entries not yet in the store: a burst of errors is written (and persisted) once. */
let pending: ClientErrorEntry[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Writes the pending entries to the log. It runs after the tasks already queued, so errors thrown by many
 * timers at once become one store update: one re-render of the badge and one localStorage write instead
 * of one per error (a hundred in a row made React give up with "Maximum update depth exceeded").
 */
export function flushErrorLog(): void {
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
  if (!pending.length) return;
  const fresh = pending.reverse(); // newest first, as the log keeps them
  pending = [];
  useErrorLog.setState((s) => ({ logs: [...fresh, ...s.logs].slice(0, WEBSITE.errorLogMax) }));
}

/** Adds one entry to the log (written with the others of the same burst, right after it). */
export function logClientError(type: string, reason: unknown, info = ''): void {
  const { message, stack } = describe(reason);
  const entry: ClientErrorEntry = {
    type,
    message: message || 'unknown error',
    stack,
    info,
    url: typeof location !== 'undefined' ? location.href : '',
    time: formatTime(new Date()),
  };
  pending.push(entry);
  flushTimer ??= setTimeout(flushErrorLog, 0);
}

export function clearErrorLog(): void {
  pending = [];
  flushErrorLog();
  useErrorLog.setState({ logs: [] });
}

/** Browser noise that is not an error of ours. */
const IGNORED = [/^ResizeObserver loop/];

/**
 * Collects uncaught errors and unhandled rejections into the log. Failed http calls are left out: the
 * client has already shown them, and they are the server's errors, not the page's.
 */
export function installErrorCollector(target: Window): () => void {
  const onError = (event: ErrorEvent) => {
    if (!event.error && !event.message) return; // a resource that failed to load
    if (IGNORED.some((re) => re.test(event.message))) return;
    const where = event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : '';
    logClientError('error', event.error ?? event.message, where);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (describe(event.reason).name === 'HttpError') return;
    logClientError('unhandledrejection', event.reason, 'unhandled promise rejection');
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
