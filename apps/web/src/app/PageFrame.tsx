/** Wraps a page: sets the document title, checks the page's authority, suspends while it loads. */
import { documentTitle, PRODUCT_TITLE, PRODUCT_TITLE_EN, type RouteEntry } from '@iot/contract';
import { Suspense, useEffect, type ReactNode } from 'react';
import { NoPermission } from '../components/NoPermission';
import { UserInfoFallback } from '../components/UserInfoFallback';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { PageSpin } from '../components/PageSpin';
import { mayOpen, useLanguage, useUserInfo } from './useSession';

/** Sets `document.title` to `<page title> | <product title>` in the current language. */
export function useDocumentTitle(route: RouteEntry | undefined): void {
  const language = useLanguage();
  useEffect(() => {
    if (!route) return;
    document.title = documentTitle(route.title[language], language === 'en-US' ? PRODUCT_TITLE_EN : PRODUCT_TITLE);
  }, [route, language]);
}

/**
 * A guarded page: 403 result when the server's user info lacks the route's authority; otherwise a page
 * header with the page's title (layout pages) and the page inside its own error boundary.
 */
export function PageFrame({ route, children }: { route: RouteEntry; children: ReactNode }) {
  useDocumentTitle(route);
  const language = useLanguage();
  const { data: info, error, refetch } = useUserInfo();
  if (!info) return <UserInfoFallback error={error} onRetry={() => void refetch()} />;
  if (!mayOpen(info, route.authority)) return <NoPermission />;
  return (
    <PageErrorBoundary resetKey={route.path}>
      {route.frame === 'layout' && <h1 className="page-header">{route.title[language]}</h1>}
      <Suspense fallback={<PageSpin />}>{children}</Suspense>
    </PageErrorBoundary>
  );
}

/** A public page (login): title only. */
export function PublicFrame({ route, children }: { route: RouteEntry; children: ReactNode }) {
  useDocumentTitle(route);
  return <Suspense fallback={<PageSpin />}>{children}</Suspense>;
}
