/** What a guarded screen shows while the server's user info is pending or failed. */
import { Button } from 'antd';
import { Result } from './LazyResult';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { NoPermission } from './NoPermission';
import { PageSkeleton } from './Skeleton';

/** The page skeleton while loading; 403 result when the tenant is refused; an error with retry otherwise. */
export function UserInfoFallback({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!error) return <PageSkeleton />;
  if (error instanceof ApiError && error.code === 'FORBIDDEN') return <NoPermission />;
  return (
    <Result
      status="error"
      title={t('loadFailed')}
      subTitle={error instanceof Error ? error.message : undefined}
      extra={<Button type="primary" onClick={onRetry}>{t('retry')}</Button>}
    />
  );
}
