/**
 * Navigation guard (spec §2): a visit is allowed only when a stored username exists (or the target
 * is /login, which sits outside this guard). Root `/` sends administrators to /homepage and others
 * to the first page their server-side authorities permit.
 */
import { ACCOUNT_TYPE_ADMIN, firstPermittedPath } from '@iot/contract';
import { Navigate, Outlet } from 'react-router';
import { NoPermission } from '../components/NoPermission';
import { UserInfoFallback } from '../components/UserInfoFallback';
import { LiveConnection } from '../live/LiveConnection';
import { useUserInfo, useUsername } from './useSession';

/** Renders child routes when signed in (with the live stream open: live/), else redirects to /login. */
export function RequireSession() {
  const username = useUsername();
  if (!username) return <Navigate to="/login" replace />;
  return (
    <>
      <LiveConnection />
      <Outlet />
    </>
  );
}

/** Root redirect by account type and authorities. */
export function RootRedirect() {
  const { data: info, error, refetch } = useUserInfo();
  if (!info) return <UserInfoFallback error={error} onRetry={() => void refetch()} />;
  if (info.type === ACCOUNT_TYPE_ADMIN) return <Navigate to="/homepage" replace />;
  const target = firstPermittedPath(false, info.authorities);
  return target ? <Navigate to={target} replace /> : <NoPermission />;
}
