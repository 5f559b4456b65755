/** The document title of a page, and the frame of the public sign-in page (no antd: it ships with the app). */
import { documentTitle, PRODUCT_TITLE, PRODUCT_TITLE_EN, type RouteEntry } from '@iot/contract';
import { type ReactNode, useEffect } from 'react';
import { useLanguage } from '../hooks/useSession';

/** Sets `document.title` to `<page title> | <product title>` in the current language. */
export function useDocumentTitle(route: RouteEntry | undefined): void {
  const language = useLanguage();
  useEffect(() => {
    if (!route) return;
    document.title = documentTitle(route.title[language], language === 'en-US' ? PRODUCT_TITLE_EN : PRODUCT_TITLE);
  }, [route, language]);
}

/** A public page (login): title only. */
export function PublicFrame({ route, children }: { route: RouteEntry; children: ReactNode }) {
  useDocumentTitle(route);
  return children;
}
