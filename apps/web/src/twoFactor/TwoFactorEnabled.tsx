/**
 * The two-factor dialog's view while two-factor is on: recovery codes left, renewing them
 * (the new ten are shown by the dialog, once) and turning two-factor off. Both are dangerous calls:
 * the shared HTTP client asks for a fresh code in the step-up dialog first. Turning off is offered
 * only while no role (nor DEMO=off, for a platform administrator) requires two-factor.
 */
import { type ResponseOf, twoFactorEndpoints as api } from '@iot/contract';
import { Alert, Button, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';

interface Props {
  status: ResponseOf<typeof api.status>;
  /** The renewed recovery codes, for the dialog to show once. */
  onRecoveryCodes(codes: string[]): void;
}

/** State and self-service actions of an enrolled account. */
export function TwoFactorEnabled({ status, onRecoveryCodes }: Props) {
  const { t } = useTranslation('twoFactor');
  const renew = useApiMutation({
    mutationFn: () => call(api.recoveryCodes),
    invalidate: [api.status],
    onSuccess: (result) => onRecoveryCodes(result.recoveryCodes),
  });
  const disable = useApiMutation({ mutationFn: () => call(api.disable), invalidate: [api.status], success: t('disabledDone') });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert type="success" showIcon message={t('enabled')} />
      <Typography.Text>{t('recoveryLeft', { count: status.recoveryCodesLeft })}</Typography.Text>
      <Space wrap>
        <Popconfirm title={t('renewConfirm')} okText={t('renew')} cancelText={t('cancel')} onConfirm={() => renew.run()}>
          <Button loading={renew.isPending}>{t('renew')}</Button>
        </Popconfirm>
        {!status.required && (
          <Popconfirm title={t('disableConfirm')} okText={t('disable')} okButtonProps={{ danger: true }} cancelText={t('cancel')} onConfirm={() => disable.run()}>
            <Button danger loading={disable.isPending}>{t('disable')}</Button>
          </Popconfirm>
        )}
      </Space>
      <Typography.Text type="secondary">{status.required ? t('requiredHint') : t('resetHint')}</Typography.Text>
    </Space>
  );
}
