/**
 * Wraps a page: sets the document title, checks the page's authority, suspends while it loads. While
 * the user info, the page's code or its words load, the page's title stands over a list skeleton
 * (components/Skeleton.tsx), as the console's skeleton drew it: one skeleton, then the page.
 */
import type { RouteEntry } from '@iot/contract';
import { Suspense, type ReactNode } from 'react';
import { NoPermission } from '../components/NoPermission';
import { PageSkeleton } from '../components/Skeleton';
import { UserInfoFallback } from '../components/UserInfoFallback';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { useDocumentTitle } from './PublicFrame';
import { mayOpen, useLanguage, useUserInfo } from '../hooks/useSession';

/**
 * A guarded page: 403 result when the server's user info lacks the route's authority; otherwise a page
 * header with the page's title (layout pages) and the page inside its own error boundary.
 */
export function PageFrame({ route, children }: { route: RouteEntry; children: ReactNode }) {
  useDocumentTitle(route);
  const language = useLanguage();
  const { data: info, error, refetch } = useUserInfo();
  const header = route.frame === 'layout' && <h1 className="page-header">{route.title[language]}</h1>;
  if (!info && !error) return <>{header}<PageSkeleton /></>;
  if (!info) return <UserInfoFallback error={error} onRetry={() => void refetch()} />;
  if (!mayOpen(info, route.authority)) return <NoPermission />;
  return (
    <PageErrorBoundary resetKey={route.path}>
      {header}
      <Suspense fallback={<PageSkeleton />}>{children}</Suspense>
    </PageErrorBoundary>
  );
}
