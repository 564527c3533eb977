/**
 * Where the http client sends its error toasts. The shell registers antd's message while it is mounted;
 * /login registers nothing (it shows errors inline), so antd's message never loads with the login page.
 */
export type ToastFn = (text: string) => void;

let errorToast: ToastFn | null = null;

export function setErrorToast(fn: ToastFn | null): () => void {
  errorToast = fn;
  return () => {
    if (errorToast === fn) errorToast = null;
  };
}

export function showErrorToast(text: string): void {
  errorToast?.(text);
}
