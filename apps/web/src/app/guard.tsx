/**
 * Navigation guard (spec §2): a visit is allowed only when a stored username exists (or the target
 * is /login; app/router.tsx sends every other path to /login when none is stored). Root `/` sends
 * administrators to /homepage and others to the first page their server-side authorities permit.
 */
import { ACCOUNT_TYPE_ADMIN, firstPermittedPath } from '@iot/contract';
import { Navigate } from 'react-router';
import { NoPermission } from '../components/NoPermission';
import { UserInfoFallback } from '../components/UserInfoFallback';
import { useUserInfo } from '../hooks/useSession';

/** Root redirect by account type and authorities. */
export function RootRedirect() {
  const { data: info, error, refetch } = useUserInfo();
  if (!info) return <UserInfoFallback error={error} onRetry={() => void refetch()} />;
  if (info.type === ACCOUNT_TYPE_ADMIN) return <Navigate to="/homepage" replace />;
  const target = firstPermittedPath(false, info.authorities);
  return target ? <Navigate to={target} replace /> : <NoPermission />;
}
