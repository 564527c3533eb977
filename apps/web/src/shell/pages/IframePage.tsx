/**
 * /myiframe/{routerPath}?src=<url>&name=<label> — an external page inside the app (spec §2). Only http(s)
 * addresses and paths of this site are embedded.
 */
import '../layout/i18n';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

export function safeFrameSrc(src: string | null): string | null {
  if (!src) return null;
  if (/^https?:\/\//i.test(src)) return src;
  if (src.startsWith('/') && !src.startsWith('//')) return src;
  if (/^[\w./-]+\.html?(\?.*)?$/i.test(src)) return `/${src}`;
  return null;
}

export default function IframePage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const query = new URLSearchParams(search);
  const src = safeFrameSrc(query.get('src'));
  const name = query.get('name') || t('route.iframe');
  if (!src) {
    return (
      <p role="alert" style={{ padding: 24 }}>
        {t('iframe.invalid')}
      </p>
    );
  }
  return (
    <iframe
      title={name}
      src={src}
      style={{
        display: 'block',
        width: '100%',
        height: 'calc(100vh - 150px)',
        border: 0,
        background: '#fff',
      }}
    />
  );
}
