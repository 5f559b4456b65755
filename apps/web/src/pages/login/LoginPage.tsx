/**
 * Sign-in (spec §7 Auth): captcha from /oauth/checkCode (click to refresh; hidden when not required),
 * password encrypted with the key from /oauth/key, POST /oauth/token, then /oauth/userInfo and '/'.
 */
import { authEndpoints } from '@iot/contract';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client';
import { fetchUserInfo } from '../../api/userInfo';
import { applyLanguage } from '../../app/language';
import { queryClient } from '../../app/queryClient';
import { setSignedIn, setToken } from '../../app/session';
import { USER_INFO_KEY, useLanguage } from '../../app/useSession';
import { CryptoUnavailableError, encryptPassword } from './crypto';

interface Values {
  username: string;
  password: string;
  checkCode?: string;
}

/** The login screen. */
export default function LoginPage() {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const language = useLanguage();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const captcha = useQuery({
    queryKey: ['captcha'],
    queryFn: () => call(authEndpoints.captcha, { background: true }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const required = captcha.data?.required ?? true;

  const refreshCaptcha = () => {
    form.setFieldValue('checkCode', '');
    void captcha.refetch();
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
      else if (error instanceof ApiError) message.error(error.message);
      else message.error(String(error));
      refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  const image = captcha.data?.image;
  return (
    <div className="login-page">
      <Button className="login-language" type="link" onClick={() => applyLanguage(language === 'en-US' ? 'zh-CN' : 'en-US')}>
        {t('common:switchLanguage')}
      </Button>
      <Card className="login-card">
        <div className="login-heading">
          <h1>{t('heading')}</h1>
          <p>{t('subheading')}</p>
        </div>
        <Form form={form} size="large" onFinish={(values) => void onFinish(values)} autoComplete="off">
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('usernameRequired') }]}>
            <Input id="username" prefix={<UserOutlined />} placeholder={t('username')} autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: t('passwordRequired') }]}>
            <Input.Password id="password" prefix={<LockOutlined />} placeholder={t('password')} autoComplete="current-password" />
          </Form.Item>
          {required && (
            <div className="login-captcha">
              <Form.Item name="checkCode" style={{ flex: 1 }} rules={[{ required: true, whitespace: true, message: t('checkCodeRequired') }]}>
                <Input id="checkCode" prefix={<SafetyOutlined />} placeholder={t('checkCode')} maxLength={10} />
              </Form.Item>
              {image && (
                <button type="button" className="login-captcha-image" title={t('refreshCaptcha')} onClick={refreshCaptcha}>
                  <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(image)}`} alt={t('refreshCaptcha')} />
                </button>
              )}
            </div>
          )}
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
