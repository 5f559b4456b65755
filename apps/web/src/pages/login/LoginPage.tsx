/**
 * Sign-in (spec §7 Auth): captcha from /oauth/checkCode (click to refresh; hidden when not required),
 * password encrypted with the key from /oauth/key, POST /oauth/token (with two-factor on: its challenge
 * and a code, TwoFactorStep.tsx), then /oauth/userInfo and '/'; or single sign-on (SsoSignIn.tsx).
 * Plain elements styled like antd's large inputs and primary button (styles.css `.login-*`): the first
 * page a newcomer opens loads no antd code (39 requests and 252 KiB before).
 */
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client';
import { firstLoadEndpoints } from '../../api/firstLoad';
import { fetchUserInfo } from '../../api/userInfo';
import { applyLanguage } from '../../session/language';
import { queryClient } from '../../api/queryClient';
import { setSignedIn, setToken } from '../../session/session';
import { USER_INFO_KEY, useLanguage } from '../../hooks/useSession';
import { CryptoUnavailableError, encryptPassword } from '../../lib/crypto';
import { useMessage } from '../../components/appMessage';
import { LoginField } from './LoginField';
import { LoginIcon } from './LoginIcon';
import { SsoSignIn } from './SsoSignIn';
import { TwoFactorStep } from './TwoFactorStep';

interface Values { username: string; password: string; checkCode?: string }

/** The login screen. */
export default function LoginPage() {
  const { t } = useTranslation('login');
  const message = useMessage();
  const language = useLanguage();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({ username: '', password: '', checkCode: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const set = (name: keyof Values) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };
  const [submitting, setSubmitting] = useState(false);
  const [challenge, setChallenge] = useState<string>();
  const [passwordShown, setPasswordShown] = useState(false);
  const captcha = useQuery({
    queryKey: ['captcha'],
    queryFn: () => call(firstLoadEndpoints.auth.captcha, { background: true }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  // The server asks for a captcha after repeated failures on a username even when it is off.
  const [captchaDemanded, setCaptchaDemanded] = useState(false);
  const required = captchaDemanded || (captcha.data?.required ?? true);

  const refreshCaptcha = () => {
    setValues((current) => ({ ...current, checkCode: '' }));
    void captcha.refetch();
  };
  /** Required fields (trimmed username and captcha), as the form's inline messages. */
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      username: values.username.trim() ? undefined : t('usernameRequired'),
      password: values.password ? undefined : t('passwordRequired'),
      checkCode: !required || values.checkCode?.trim() ? undefined : t('checkCodeRequired'),
    };
    setErrors(missing);
    if (!missing.username && !missing.password && !missing.checkCode) void onFinish(values);
  };

  const complete = async (accessToken: string) => {
    setToken(accessToken);
    const info = await fetchUserInfo();
    queryClient.setQueryData(USER_INFO_KEY, info);
    setSignedIn(info);
    message.destroy();
    navigate('/', { replace: true });
  };

  const onFinish = async (values: Values) => {
    setSubmitting(true);
    try {
      const key = await call(firstLoadEndpoints.auth.publicKey, { quiet: true });
      const password = await encryptPassword(key.publicKey, values.password);
      const token = await call(firstLoadEndpoints.auth.signIn, {
        quiet: true,
        body: { username: values.username, password, keyId: key.keyId, checkCode: values.checkCode ?? '', checkCodeId: captcha.data?.checkCodeId ?? '' },
      });
      if ('challenge' in token) setChallenge(token.challenge);
      else await complete(token.access_token);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CAPTCHA_INVALID') setCaptchaDemanded(true);
      message.error(error instanceof CryptoUnavailableError ? t('cryptoUnavailable') : error instanceof ApiError ? error.message : String(error));
      refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  const image = captcha.data?.image;
  /** The props of a field's input: its value, its change handler and its error. */
  const bind = (name: keyof Values) => ({ name, value: values[name] ?? '', onChange: set(name), error: errors[name] });
  return (
    <div className="login-page">
      <button type="button" className="login-language" onClick={() => applyLanguage(language === 'en-US' ? 'zh-CN' : 'en-US')}>
        {t('common:switchLanguage')}
      </button>
      <div className="login-card">
        <div className="login-heading">
          <h1>{t('heading')}</h1>
          <p>{t('subheading')}</p>
        </div>
        {challenge ? <TwoFactorStep challenge={challenge} onToken={complete} onRestart={() => { setChallenge(undefined); refreshCaptcha(); }} /> : (<>
        <form onSubmit={submit} autoComplete="off" noValidate>
          <LoginField {...bind('username')} icon={UserOutlined} placeholder={t('username')} aria-label={t('username')} autoComplete="username" />
          <LoginField {...bind('password')} icon={LockOutlined} type={passwordShown ? 'text' : 'password'} placeholder={t('password')}
            aria-label={t('password')} autoComplete="current-password" suffix={(
              <button type="button" className="login-eye" aria-label={t(passwordShown ? 'hidePassword' : 'showPassword')} onClick={() => setPasswordShown((shown) => !shown)}>
                <LoginIcon icon={passwordShown ? EyeOutlined : EyeInvisibleOutlined} />
              </button>
            )} />
          {required && (
            <div className="login-captcha">
              <LoginField {...bind('checkCode')} icon={SafetyOutlined} placeholder={t('checkCode')} aria-label={t('checkCode')} maxLength={10} />
              {image && (
                <button type="button" className="login-captcha-image" title={t('refreshCaptcha')} onClick={refreshCaptcha}>
                  <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(image)}`} alt={t('refreshCaptcha')} />
                </button>
              )}
            </div>
          )}
          {/* Disabled until the server said whether a captcha is needed: a submit before that would be
              refused for a missing captcha the operator may never have been asked for. */}
          <button type="submit" className="login-submit" disabled={captcha.isPending || submitting} aria-busy={submitting || undefined}>
            {submitting && <span className="login-submit-spinner" aria-hidden="true" />}
            {t('submit')}
          </button>
        </form>
        <SsoSignIn onToken={complete} onChallenge={setChallenge} />
        </>)}
      </div>
    </div>
  );
}
