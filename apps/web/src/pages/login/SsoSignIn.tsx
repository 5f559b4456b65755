/**
 * "Sign in with {name}" (docs/identity.md): shown when GET /oauth/sso says
 * the server has an OpenID provider. The click asks POST /oauth/sso/start for the provider's URL and
 * a sealed transaction, keeps the transaction in this tab (sessionStorage) and leaves for the provider.
 * The provider sends the browser back to this page with `?code=…&state=…` (or `?error=…`): the query
 * string is removed from the address bar at once and handed with the transaction to POST
 * /oauth/sso/callback, whose token (`onToken`) or two-factor challenge (`onChallenge`) finishes the
 * sign-in as after a password. The session token never appears in a URL. When the data centre has
 * password sign-in off, a notice above the button says so.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { firstLoadEndpoints } from '../../api/firstLoad';
import { useMessage } from '../../components/appMessage';

/** Where the tab keeps the transaction of a sign-in under way. */
const TRANSACTION_KEY = 'iot.sso.transaction';

interface SsoSignInProps {
  onToken(accessToken: string): Promise<void>;
  onChallenge(challenge: string): void;
}

/** The single sign-on button under the password form, and the finishing of a sign-in on return. */
export function SsoSignIn({ onToken, onChallenge }: SsoSignInProps) {
  const { t } = useTranslation('login');
  const message = useMessage();
  const [busy, setBusy] = useState(false);
  const status = useQuery({ queryKey: ['sso'], queryFn: () => call(firstLoadEndpoints.sso.status, { background: true }), staleTime: Number.POSITIVE_INFINITY });
  const fail = (error: unknown) => message.error(error instanceof ApiError ? error.message : String(error));

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on the provider's return
  useEffect(() => {
    const callback = window.location.search;
    const transaction = sessionStorage.getItem(TRANSACTION_KEY);
    if (!transaction || !new URLSearchParams(callback).has('state')) return;
    sessionStorage.removeItem(TRANSACTION_KEY);
    window.history.replaceState(null, '', window.location.pathname);
    setBusy(true);
    call(firstLoadEndpoints.sso.callback, { quiet: true, body: { transaction, callback } })
      .then((answer) => ('challenge' in answer ? onChallenge(answer.challenge) : onToken(answer.access_token)))
      .catch(fail)
      .finally(() => setBusy(false));
  }, []);

  const start = async () => {
    setBusy(true);
    try {
      const { url, transaction } = await call(firstLoadEndpoints.sso.start, { quiet: true });
      sessionStorage.setItem(TRANSACTION_KEY, transaction);
      window.location.assign(url);
    } catch (error) {
      fail(error);
      setBusy(false);
    }
  };

  if (!status.data?.enabled) return null;
  return (
    <>
      {!status.data.passwordSignIn && <p className="login-notice" role="status">{t('passwordOff', { name: status.data.displayName })}</p>}
      <div className="login-or">{t('or')}</div>
      <button type="button" className="login-sso" onClick={() => void start()} disabled={busy} aria-busy={busy || undefined}>
        {t('ssoSubmit', { name: status.data.displayName })}
      </button>
    </>
  );
}
