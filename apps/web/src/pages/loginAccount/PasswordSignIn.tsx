/**
 * 登录账号 → single sign-on: the data centre's "password sign-in" switch (docs/identity.md
 * "Single sign-on"). Off: the data centre's operators sign in with single sign-on only (platform
 * administrators keep the password) and their password sessions end at once. Turning it off asks for
 * confirmation first (and a step-up, by the contract); the server refuses it with SSO_RULE_REQUIRED
 * while no provider or no rule of the data centre could let its operators in, shown as its message.
 */
import { ssoEndpoints as api } from '@iot/contract';
import { Popconfirm, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

interface PasswordSignInProps {
  /** The data centre's current setting (GET /oauth/sso). */
  enabled: boolean;
}

/** The switch, with a confirmation before turning it off. */
export function PasswordSignIn({ enabled }: PasswordSignInProps) {
  const { t } = useTranslation('sso');
  const change = useApiMutation({
    mutationFn: (on: boolean) => call(api.passwordSignIn, { body: { enabled: on } }),
    success: (result) => t(result.passwordSignIn ? 'passwordOnDone' : 'passwordOffDone'), invalidate: [api.status],
  });
  const toggle = <Switch id="sso-password-sign-in" checked={enabled} loading={change.isPending} onChange={(on) => (on ? void change.run(true) : undefined)} />;
  return (
    <Space direction="vertical" size={2}>
      <Space>
        <Typography.Text strong>{t('passwordSignIn')}</Typography.Text>
        {enabled ? (
          <Popconfirm title={t('passwordOffConfirm')} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={() => change.run(false)}>
            {toggle}
          </Popconfirm>
        ) : toggle}
        <Typography.Text type={enabled ? 'secondary' : 'warning'}>{t(enabled ? 'passwordOn' : 'passwordOff')}</Typography.Text>
      </Space>
      <Typography.Text type="secondary">{t('passwordHint')}</Typography.Text>
    </Space>
  );
}
