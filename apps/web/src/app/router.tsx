/**
 * The router (history mode under /api). The app itself knows two routes: /login, which ships with it,
 * and everything else, the console (app/Console.tsx), loaded after sign-in with antd and its own
 * routes from the contract's route table. Until the console has loaded, its skeleton stands where it
 * will be (components/Skeleton.tsx). `preloadConsole` starts loading, at start-up, the console, the
 * route's page, its words, the user info and the page's first data together rather than one after the other.
 * Declarative mode (BrowserRouter + useRoutes): the app uses no loaders or actions, and the data
 * router would add ~20 KiB to every first load (bench/web.ts).
 */
import { findRoute, LOGIN_ROUTE, ROUTES, WEB_BASE_PATH } from '@iot/contract';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router';
import { fetchUserInfo } from '../api/userInfo';
import { ShellSkeleton } from '../components/Skeleton';
import { LoginPage, preloadPage } from '../pages/registry';
import { setNavigator } from '../session/navigation';
import { PublicFrame } from './PublicFrame';
import { startEarlyData } from './earlyData';
import { preloadWords } from '../i18n';
import { queryClient } from '../api/queryClient';
import { getUsername } from '../session/session';
import { USER_INFO_KEY, useLanguage, useUsername } from '../hooks/useSession';

const loadConsole = () => import('./Console');
const loadLayout = () => import('./layout/ConsoleLayout');
const Console = lazy(loadConsole);
/** The console frame (menu, header, tabs): loaded by the console's layout routes (app/Console.tsx). */
export const ConsoleLayout = lazy(() => loadLayout().then((module) => ({ default: module.ConsoleLayout })));

/**
 * Signed in, at a console path (`/lockInfo`, no /api; `search`: location.search): starts loading its
 * code, the language's words, the user info and the page's first data (app/earlyData.ts) now.
 */
export function preloadConsole(path: string, search = ''): void {
  if (!getUsername() || path === LOGIN_ROUTE.path) return;
  void loadConsole();
  void preloadWords();
  startEarlyData(path, search);
  const route = ROUTES.find((entry) => entry.path === path);
  if (route) {
    if (route.frame === 'layout') void loadLayout();
    preloadPage(route.path);
  }
  void queryClient.prefetchQuery({ queryKey: USER_INFO_KEY, queryFn: fetchUserInfo });
}

/** The console's skeleton with the title of the page being opened (none for the full-screen pages). */
export function ConsoleSkeleton() {
  const language = useLanguage();
  const route = findRoute(useLocation().pathname);
  if (route?.frame === 'bare') return null;
  return <ShellSkeleton title={route?.frame === 'layout' ? route.title[language] : undefined} />;
}

/** Every path but /login: the console when signed in, else the sign-in page. */
function ConsoleEntry() {
  const username = useUsername();
  if (!username) return <Navigate to={LOGIN_ROUTE.path} replace />;
  return <Suspense fallback={<ConsoleSkeleton />}><Console /></Suspense>;
}

const routes: RouteObject[] = [
  { path: LOGIN_ROUTE.path, element: <PublicFrame route={LOGIN_ROUTE}><LoginPage /></PublicFrame> },
  { path: '*', element: <ConsoleEntry /> },
];

function AppRoutes() {
  const navigate = useNavigate();
  useEffect(() => setNavigator((to) => void navigate(to)), [navigate]);
  return useRoutes(routes);
}

/** The app's router (basename /api). */
export function AppRouter() {
  return (
    <BrowserRouter basename={WEB_BASE_PATH}>
      <AppRoutes />
    </BrowserRouter>
  );
}
