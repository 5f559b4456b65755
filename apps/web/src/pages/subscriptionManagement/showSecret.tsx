/** The one showing of a new signing secret (it cannot be read again). */
import type { ResponseOf, subscriptionEndpoints } from '@iot/contract';
import { Alert, type Modal as AntdModal, Typography } from 'antd';
import type { TFunction } from 'i18next';

type Modal = ReturnType<typeof AntdModal.useModal>[0];

/** Opens a modal with the secret, copyable, and when the previous one stops signing. */
export function showSecret(modal: Modal, t: TFunction, key: ResponseOf<typeof subscriptionEndpoints.generateKey>): void {
  modal.info({
    title: t('secretTitle'),
    width: 560,
    okText: t('secretSaved'),
    content: (
      <>
        <Alert type="warning" showIcon message={t('secretOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable code data-testid="new-secret">{key.secret}</Typography.Paragraph>
        {key.previousValidUntil && <Typography.Text type="secondary">{t('previousValidUntil', { time: new Date(key.previousValidUntil).toLocaleString() })}</Typography.Text>}
      </>
    ),
  });
}
