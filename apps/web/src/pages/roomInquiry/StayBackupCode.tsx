/**
 * 备用密码 / Backup code (issue #27; docs/stays.md "Backup codes"; POST /iot/v1/stay/backupCode): on a
 * checked-in stay whose guest's own code is still on its way to a sleeping lock (readiness queued or
 * failed), the front desk issues one of the codes pre-loaded on the lock, confirmed by a Popconfirm; a
 * modal shows the digits of each lock and until when they work (asking again shows the same code). The
 * platform retires it once the guest's own code is on the lock or the stay ends. Rendered for every
 * checked-in stay so the modal stays open when the light turns green while it is read.
 */
import { type IssuedBackupCode, stayEndpoints, type StayRecord } from '@iot/contract';
import { Alert, Button, Modal, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { formatTime } from '../../app/timeZone';

/** The button (while a door waits) and the modal with the issued codes. */
export function StayBackupCode({ stay }: { stay: StayRecord }) {
  const { t } = useTranslation('stay');
  const [codes, setCodes] = useState<IssuedBackupCode[]>();
  const issue = useApiMutation({
    mutationFn: () => call(stayEndpoints.backupCode, { body: { stayId: stay.id } }),
    invalidate: [stayEndpoints.list], onSuccess: (result) => setCodes(result.codes),
  });
  const waiting = stay.readiness === 'queued' || stay.readiness === 'failed';
  return (
    <>
      {waiting && (
        <Popconfirm title={t('backupCodeConfirm')} onConfirm={() => issue.run()}>
          <Button size="small" type="link" loading={issue.isPending}>{t('backupCode')}</Button>
        </Popconfirm>
      )}
      <Modal open={codes !== undefined} title={t('backupCodeTitle')} onCancel={() => setCodes(undefined)}
        footer={<Button type="primary" onClick={() => setCodes(undefined)}>{t('close')}</Button>}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {codes?.map((code) => (
            <div key={code.id}>
              <Typography.Text type="secondary">{code.lockName}</Typography.Text>
              <Typography.Paragraph copyable={{ text: code.code }} style={{ fontSize: 28, letterSpacing: 6, margin: 0 }}>
                <span data-testid="backup-code">{code.code}</span>
              </Typography.Paragraph>
              <Typography.Text type="secondary">
                {t('backupCodeValid', { until: formatTime(code.validUntil, 'MM-DD HH:mm'), hours: Math.round(code.expiringMinutes / 60) })}
              </Typography.Text>
            </div>
          ))}
          <Alert type="info" showIcon title={t('backupCodeHint')} />
        </Space>
      </Modal>
    </>
  );
}
