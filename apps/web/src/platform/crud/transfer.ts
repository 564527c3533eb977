/**
 * File transfers of the list screens: blob downloads through the http client (Excel exports, templates) and
 * multipart uploads with progress (imports). Uploads use XMLHttpRequest because fetch reports no upload
 * progress; the headers and the envelope are those of the http client (spec §8).
 */
import { TOKEN_HEADER } from '@smart/contracts/core';
import { BASIC_AUTH, buildUrl, HttpError, type Query, request } from '../http/client';
import { showErrorToast } from '../http/toast';
import { currentLanguage, htmlLang, t } from '../i18n';
import { useSession } from '../session/session';

/** GET a file and hand it to the browser as a download. */
export async function downloadFile(url: string, params: Query | undefined, fileName: string): Promise<void> {
  const blob = await request<Blob>(url, { method: 'GET', params, responseType: 'blob' });
  const href = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = href;
    a.download = fileName;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(href), 1000);
  }
}

/**
 * What a record's upload is for (`?resource=&field=`): the server stores it only for a user who may add or
 * edit that resource's rows, and only for a field of the upload's kind.
 */
export const uploadFor = (resource: string | undefined, field: { name: string }): Query => ({
  resource: resource ?? '',
  field: field.name,
});

export interface Envelope<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

/**
 * POST a multipart form, reporting progress (0–100). Resolves with the envelope's data; rejects with an
 * HttpError carrying the body (e.g. an import's per-row errors in `data.errors`) after the error toast.
 */
export function uploadWithProgress<T>(
  url: string,
  form: FormData,
  params: Query | undefined,
  onProgress: (percent: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(url, params));
    xhr.setRequestHeader('Authorization', BASIC_AUTH);
    xhr.setRequestHeader('Accept-Language', htmlLang(currentLanguage()));
    const token = useSession.getState().token;
    if (token) xhr.setRequestHeader(TOKEN_HEADER, `bearer ${token}`);
    xhr.timeout = 120_000;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    const fail = (message: string, code: number, body: unknown) => {
      showErrorToast(message);
      reject(new HttpError(message, code, xhr.status, body));
    };
    xhr.onload = () => {
      let body: Partial<Envelope<T>> | null = null;
      try {
        body = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        body = null;
      }
      const code = typeof body?.code === 'number' ? body.code : xhr.status;
      if (code === 200) {
        onProgress(100);
        resolve(body?.data as T);
      } else fail(body?.msg || t('http.status', { status: xhr.status }), code, body);
    };
    xhr.onerror = () => fail(t('http.network'), 0, null);
    xhr.ontimeout = () => fail(t('http.timeout'), 408, null);
    xhr.send(form);
  });
}
