/**
 * The console (loaded after sign-in, app/router.tsx): antd's ConfigProvider (locale and the forms'
 * check messages follow the language toggle, components/formRules.ts; theme components/theme.ts, zero-runtime:
 * antd's rules come as static CSS, app/antdStyles.ts), the
 * loading overlay, the step-up dialog (twoFactor/StepUpModal.tsx), the live stream (live/) and the console's routes, built from the contract's route
 * table (ROUTES): layout routes inside the console layout, bare routes (/Datavisualization) full
 * screen, `/` (inside the layout) to the first page the account may open.
 */
import './antdStyles';
import { type PagePath, ROUTES, type RouteEntry } from '@iot/contract';
import { ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { createElement, Suspense } from 'react';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { validateMessages } from '../components/formRules';
import { pageFor } from '../pages/registry';
import './dayjsLocale';
import { LiveConnection } from '../live/LiveConnection';
import { StepUpModal } from '../twoFactor/StepUpModal';
import { RootRedirect } from './guard';
import { LoadingOverlay } from './LoadingOverlay';
import { PageFrame } from './PageFrame';
import { ConsoleLayout, ConsoleSkeleton } from './router';
import { CONSOLE_STATIC_THEME } from '../components/theme';
import { useLanguage } from '../hooks/useSession';

const guarded = (route: RouteEntry<PagePath>): RouteObject => ({
  path: route.path,
  element: <PageFrame route={route}>{createElement(pageFor(route.path))}</PageFrame>,
});

const routes: RouteObject[] = [
  // The root inside the console frame: an account with no page sees why, with the header's sign-out and data-centre switch.
  { element: <Suspense fallback={<ConsoleSkeleton />}><ConsoleLayout /></Suspense>, children: [{ path: '/', element: <RootRedirect /> }, ...ROUTES.filter((route) => route.frame === 'layout').map(guarded)] },
  ...ROUTES.filter((route) => route.frame === 'bare').map(guarded),
  { path: '*', element: <Navigate to="/" replace /> },
];

/** The signed-in console. */
export default function Console() {
  const language = useLanguage();
  const page = useRoutes(routes);
  return (
    <ConfigProvider locale={language === 'en-US' ? enUS : zhCN} theme={CONSOLE_STATIC_THEME} button={{ autoInsertSpace: false }}
      form={{ validateMessages: validateMessages() }}>
      <LiveConnection />
      <LoadingOverlay />
      <StepUpModal />
      {page}
    </ConfigProvider>
  );
}
