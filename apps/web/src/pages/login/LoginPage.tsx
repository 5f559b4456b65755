/**
 * Sign-in (spec §7 Auth): captcha from /oauth/checkCode (click to refresh; hidden when not required),
 * password encrypted with the key from /oauth/key, POST /oauth/token, then /oauth/userInfo and '/'.
 */
import { authEndpoints } from '@iot/contract';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Input } from 'antd';
import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client';
import { fetchUserInfo } from '../../api/userInfo';
import { applyLanguage } from '../../app/language';
import { queryClient } from '../../app/queryClient';
import { setSignedIn, setToken } from '../../app/session';
import { USER_INFO_KEY, useLanguage } from '../../app/useSession';
import { CryptoUnavailableError, encryptPassword } from './crypto';
import { useMessage } from '../../app/appMessage';

interface Values {
  username: string;
  password: string;
  checkCode?: string;
}

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
  const captcha = useQuery({
    queryKey: ['captcha'],
    queryFn: () => call(authEndpoints.captcha, { background: true }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  // The server asks for a captcha after repeated failures on a username even when it is off (issue #10).
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

  const onFinish = async (values: Values) => {
    setSubmitting(true);
    try {
      const key = await call(authEndpoints.publicKey, { quiet: true });
      const password = await encryptPassword(key.publicKey, values.password);
      const token = await call(authEndpoints.signIn, {
        quiet: true,
        body: { username: values.username, password, keyId: key.keyId, checkCode: values.checkCode ?? '', checkCodeId: captcha.data?.checkCodeId ?? '' },
      });
      setToken(token.access_token);
      const info = await fetchUserInfo();
      queryClient.setQueryData(USER_INFO_KEY, info);
      setSignedIn(info);
      message.destroy();
      navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof CryptoUnavailableError) message.error(t('cryptoUnavailable'));
      else if (error instanceof ApiError) {
        if (error.code === 'CAPTCHA_INVALID') setCaptchaDemanded(true);
        message.error(error.message);
      }
      else message.error(String(error));
      refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  const image = captcha.data?.image;
  const field = (error: string | undefined, input: ReactNode) => (
    <div className="login-field">
      {input}
      {error && <div className="login-error" role="alert">{error}</div>}
    </div>
  );
  return (
    <div className="login-page">
      <Button className="login-language" type="link" onClick={() => applyLanguage(language === 'en-US' ? 'zh-CN' : 'en-US')}>
        {t('common:switchLanguage')}
      </Button>
      {/* A plain panel and form, not antd Card/Form: they pull Tabs, Tooltip and the validator onto the
          sign-in route (~30 KiB, bench/web.ts). */}
      <div className="login-card">
        <div className="login-heading">
          <h1>{t('heading')}</h1>
          <p>{t('subheading')}</p>
        </div>
        <form onSubmit={submit} autoComplete="off" noValidate>
          {field(errors.username, (
            <Input id="username" size="large" value={values.username} onChange={set('username')} status={errors.username ? 'error' : undefined}
              prefix={<UserOutlined />} placeholder={t('username')} autoComplete="username" />
          ))}
          {field(errors.password, (
            <Input.Password id="password" size="large" value={values.password} onChange={set('password')} status={errors.password ? 'error' : undefined}
              prefix={<LockOutlined />} placeholder={t('password')} autoComplete="current-password" />
          ))}
          {required && (
            <div className="login-captcha">
              {field(errors.checkCode, (
                <Input id="checkCode" size="large" value={values.checkCode} onChange={set('checkCode')} status={errors.checkCode ? 'error' : undefined}
                  prefix={<SafetyOutlined />} placeholder={t('checkCode')} maxLength={10} />
              ))}
              {image && (
                <button type="button" className="login-captcha-image" title={t('refreshCaptcha')} onClick={refreshCaptcha}>
                  <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(image)}`} alt={t('refreshCaptcha')} />
                </button>
              )}
            </div>
          )}
          {/* Disabled until the server said whether a captcha is needed: a submit before that would be
              refused for a missing captcha the operator may never have been asked for. */}
          <Button type="primary" size="large" htmlType="submit" block loading={submitting} disabled={captcha.isPending}>
            {t('submit')}
          </Button>
        </form>
      </div>
    </div>
  );
}
