/**
 * The router, built from the contract's route table (ROUTES + LOGIN_ROUTE): layout routes inside the
 * console layout, bare routes (/Datavisualization) full screen, /login public. History mode under /api.
 */
import { LOGIN_ROUTE, type PagePath, ROUTES, WEB_BASE_PATH, type RouteEntry } from '@iot/contract';
import { createElement } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage, pageFor } from '../pages/registry';
import { RequireSession, RootRedirect } from './guard';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { setNavigator } from './navigation';
import { PageFrame, PublicFrame } from './PageFrame';

const guarded = (route: RouteEntry<PagePath>): RouteObject => ({
  path: route.path,
  element: <PageFrame route={route}>{createElement(pageFor(route.path))}</PageFrame>,
});

const routes: RouteObject[] = [
  { path: LOGIN_ROUTE.path, element: <PublicFrame route={LOGIN_ROUTE}><LoginPage /></PublicFrame> },
  {
    element: <RequireSession />,
    children: [
      { path: '/', element: <RootRedirect /> },
      { element: <ConsoleLayout />, children: ROUTES.filter((route) => route.frame === 'layout').map(guarded) },
      ...ROUTES.filter((route) => route.frame === 'bare').map(guarded),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** The app's browser router (basename /api). */
export const router = createBrowserRouter(routes, { basename: WEB_BASE_PATH });

setNavigator((to) => void router.navigate(to));
