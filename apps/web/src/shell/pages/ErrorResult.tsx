import { FIRST_PAGE } from '@smart/contracts/core';
import { Button } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TextKey } from '../../platform/i18n';
import { usePrimaryButtonStyle } from '../../platform/ui/primaryButton';

// antd's Result (its 404 / 403 / 500 drawings, ~5 KB) loads when an error is shown, not with every page
const Result = lazy(() => import('antd/es/result'));

export type ErrorStatus = '404' | '403' | '500';

const TEXT: Record<ErrorStatus, { title: TextKey; detail: TextKey }> = {
  '404': { title: 'route.notFound', detail: 'error.notFound' },
  '403': { title: 'route.forbidden', detail: 'error.forbidden' },
  '500': { title: 'route.serverError', detail: 'error.serverError' },
};

/** The 404 / 403 / 500 result with a back-home button; used as a page and inside the layout. */
export function ErrorResult({ status, headingLevel = 1 }: { status: ErrorStatus; headingLevel?: 1 | 2 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const primaryStyle = usePrimaryButtonStyle();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <Suspense fallback={null}>
      <Result
        status={status}
        title={
          <Heading style={{ fontSize: 'inherit', fontWeight: 'inherit', margin: 0 }}>
            {status} · {t(TEXT[status].title)}
          </Heading>
        }
        subTitle={t(TEXT[status].detail)}
        extra={
          <Button type="primary" style={primaryStyle} onClick={() => navigate(FIRST_PAGE)}>
            {t('error.backHome')}
          </Button>
        }
      />
    </Suspense>
  );
}

export function ErrorPage({ status }: { status: ErrorStatus }) {
  return (
    <main
      style={{
        minHeight: '100%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: '#fff',
      }}
    >
      <ErrorResult status={status} />
    </main>
  );
}
