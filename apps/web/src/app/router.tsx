/**
 * The router, built from the contract's route table (ROUTES + LOGIN_ROUTE): layout routes inside the
 * console layout, bare routes (/Datavisualization) full screen, /login public. History mode under /api.
 * Declarative mode (BrowserRouter + useRoutes): the app uses no loaders or actions, and the data
 * router would add ~20 KiB to every first load (bench/web.ts).
 */
import { LOGIN_ROUTE, type PagePath, ROUTES, WEB_BASE_PATH, type RouteEntry } from '@iot/contract';
import { createElement, lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, type RouteObject, useNavigate, useRoutes } from 'react-router';
import { PageSpin } from '../components/PageSpin';
import { LoginPage, pageFor } from '../pages/registry';
import { RequireSession, RootRedirect } from './guard';
import { setNavigator } from './navigation';
import { PageFrame, PublicFrame } from './PageFrame';

// The console frame (menu, header, tabs) loads after sign-in, not with the login page (bench/web.ts).
const ConsoleLayout = lazy(() => import('./layout/ConsoleLayout').then((module) => ({ default: module.ConsoleLayout })));

const guarded = (route: RouteEntry<PagePath>): RouteObject => ({
  path: route.path,
  element: <PageFrame route={route}>{createElement(pageFor(route.path))}</PageFrame>,
});

const routes: RouteObject[] = [
  { path: LOGIN_ROUTE.path, element: <PublicFrame route={LOGIN_ROUTE}><LoginPage /></PublicFrame> },
  {
    element: <RequireSession />,
    children: [
      // The root inside the console frame: an account with no page sees why, with the header's sign-out and data-centre switch.
      { element: <Suspense fallback={<PageSpin />}><ConsoleLayout /></Suspense>, children: [{ path: '/', element: <RootRedirect /> }, ...ROUTES.filter((route) => route.frame === 'layout').map(guarded)] },
      ...ROUTES.filter((route) => route.frame === 'bare').map(guarded),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
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
