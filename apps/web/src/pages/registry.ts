/**
 * Page registry: route path -> lazily loaded page (the loaders: pages/loaders.ts, one line per route).
 * Typed by the contract's PagePath, so a route without a page, or a misspelt path, fails the type
 * check. The sign-in page is not a lazy route here: it ships with the app (app/router.tsx), which
 * takes it from this module like every other page (the shell imports pages only through the registry).
 */
import type { PagePath } from '@iot/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PAGE_LOADERS as LOADERS } from './loaders';

/** The sign-in page, loaded with the app (no lazy chunk: it is the first page a newcomer sees). */
export { default as LoginPage } from './login/LoginPage';

type Page = LazyExoticComponent<ComponentType>;

const PAGES = new Map<PagePath, Page>();

/**
 * Starts loading a route's page module now (its chunk and the chunks it imports), e.g. at start-up
 * for the route being opened, in parallel with the console's own code (main.tsx).
 */
export function preloadPage(path: PagePath): void {
  void LOADERS[path]().catch(() => undefined); // a failure shows when the page is rendered
}

/** The page component of a route path (one lazy component per path). */
export function pageFor(path: PagePath): Page {
  const known = PAGES.get(path);
  if (known) return known;
  const page = lazy(LOADERS[path]);
  PAGES.set(path, page);
  return page;
}
