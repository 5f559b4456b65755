/**
 * A device secret shown once (registering a lock, resetting its secret): the secret with a copy button
 * and a warning that it cannot be seen again; closing forgets it (and removes it from the page).
 */
import type { LockSecret } from '@iot/contract';
import { Alert, Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Open while `issued` is set; `onClose` forgets it. */
export function SecretModal({ issued, onClose }: { issued: LockSecret | undefined; onClose(): void }) {
  const { t } = useTranslation('lock');
  return (
    <Modal open={issued !== undefined} title={t('secretTitle', { imei: issued?.imei ?? '' })} onCancel={onClose} maskClosable={false} destroyOnHidden
      footer={<Button type="primary" onClick={onClose}>{t('secretCopied')}</Button>}>
      <Alert type="warning" showIcon message={t('secretWarning')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph copyable={{ text: issued?.secret }} code className="device-secret" style={{ fontSize: 18 }}>
        {issued?.secret}
      </Typography.Paragraph>
    </Modal>
  );
}
