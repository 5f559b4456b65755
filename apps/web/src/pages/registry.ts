/**
 * Page registry: route path -> lazily loaded page. One line per implemented page; every other route
 * of the contract's table shows the "arrives in a later release" state.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

const HomePage = lazy(() => import('./homepage/HomePage'));
const LockInfoPage = lazy(() => import('./lock/LockInfoPage'));
const ComingSoon = lazy(() => import('../components/ComingSoon'));

/** The login screen. */
export const LoginPage = lazy(() => import('./login/LoginPage'));

const PAGES: Record<string, Page> = {
  '/homepage': HomePage,
  '/lockAnalysis': HomePage,
  '/lockInfo': LockInfoPage,
};

/** The page component of a route path (ComingSoon when not built yet). */
export function pageFor(path: string): Page {
  return PAGES[path] ?? ComingSoon;
}
