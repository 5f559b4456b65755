/**
 * The second step of a two-factor sign-in: after the password step answered a challenge,
 * the code from the authenticator app (6 digits) or a recovery code (`xxxxx-xxxxx`, used once) goes
 * to POST /oauth/token/twoFactor; its token finishes the sign-in (`onToken`). A timed-out challenge
 * (5 min) goes back to the password (`onRestart`).
 */
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { firstLoadEndpoints } from '../../api/firstLoad';
import { useMessage } from '../../components/appMessage';
import { LoginField } from './LoginField';

interface TwoFactorStepProps {
  challenge: string;
  onToken(accessToken: string): Promise<void>;
  onRestart(): void;
}

/** The code form shown in the sign-in card in place of the password form. */
export function TwoFactorStep({ challenge, onToken, onRestart }: TwoFactorStepProps) {
  const { t } = useTranslation('login');
  const message = useMessage();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^(\d{6}|[0-9a-z]{5}-[0-9a-z]{5})$/i.test(code.trim())) return setError(t('twoFactorCodeInvalid'));
    setSubmitting(true);
    try {
      const token = await call(firstLoadEndpoints.twoFactor.signIn, { quiet: true, body: { challenge, code: code.trim() } });
      await onToken(token.access_token);
    } catch (caught) {
      message.error(caught instanceof ApiError ? caught.message : String(caught));
      setCode('');
      if (caught instanceof ApiError && caught.code === 'TWO_FACTOR_CHALLENGE_EXPIRED') onRestart();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} autoComplete="off" noValidate>
      <p className="login-step-hint">{t('twoFactorHint')}</p>
      <LoginField name="twoFactorCode" icon={SafetyOutlined} value={code} error={error} placeholder={t('twoFactorCode')} aria-label={t('twoFactorCode')}
        inputMode="text" autoComplete="one-time-code" maxLength={11} autoFocus
        onChange={(event) => { setCode(event.target.value); setError(undefined); }} />
      <button type="submit" className="login-submit" disabled={submitting} aria-busy={submitting || undefined}>
        {submitting && <span className="login-submit-spinner" aria-hidden="true" />}
        {t('twoFactorSubmit')}
      </button>
      <button type="button" className="login-back" onClick={onRestart}>{t('twoFactorBack')}</button>
    </form>
  );
}
