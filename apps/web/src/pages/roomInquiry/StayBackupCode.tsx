/**
 * 备用密码 / Backup code (docs/stays.md "Backup codes"; POST /iot/v1/stay/backupCode): on a
 * checked-in stay whose guest's own code is still on its way to a sleeping lock (readiness queued or
 * failed), the front desk issues one of the codes pre-loaded on the lock, confirmed by a Popconfirm; a
 * modal shows the digits of each lock and until when they work (asking again shows the same code). The
 * platform retires it once the guest's own code is on the lock or the stay ends. Rendered for every
 * checked-in stay so the modal stays open when the light turns green while it is read. Where the data
 * centre issues codes by rule (`stayAutoBackupCode`), codes the platform issued (issuedBy
 * BACKUP_CODE_JOB_USERNAME) are marked 自动发放 / Issued automatically beside the button and in the modal;
 * the button then shows them (asking for each of their locks gives the held code again).
 */
import { BACKUP_CODE_JOB_USERNAME, type IssuedBackupCode, stayEndpoints, type StayRecord } from '@iot/contract';
import { Alert, Button, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from '../../lib/timeZone';

/** The button (while a door waits) and the modal with the issued codes. */
export function StayBackupCode({ stay }: { stay: StayRecord }) {
  const { t } = useTranslation('stay');
  const [codes, setCodes] = useState<IssuedBackupCode[]>();
  const waiting = stay.readiness === 'queued' || stay.readiness === 'failed';
  const { data: held } = useApiQuery(stayEndpoints.backupCodes, { stayId: stay.id }, { enabled: waiting });
  // Locks where the platform issued a code by itself: asked one by one, so a lock without a ready entry does not hide them.
  const autoLocks = (held ?? []).filter((code) => code.state === 'issued' && code.issuedBy === BACKUP_CODE_JOB_USERNAME).map((code) => code.lockId);
  const issue = useApiMutation({
    mutationFn: async () => {
      if (autoLocks.length === 0) return (await call(stayEndpoints.backupCode, { body: { stayId: stay.id } })).codes;
      const answers = await Promise.all(autoLocks.map((lockId) => call(stayEndpoints.backupCode, { body: { stayId: stay.id, lockId } })));
      return answers.flatMap((answer) => answer.codes);
    },
    invalidate: [stayEndpoints.list, stayEndpoints.backupCodes], onSuccess: (issued) => setCodes(issued),
  });
  return (
    <>
      {waiting && autoLocks.length > 0 && <Tag color="blue">{t('backupCodeAuto')}</Tag>}
      {waiting && (
        <Popconfirm title={t(autoLocks.length > 0 ? 'backupCodeAutoConfirm' : 'backupCodeConfirm')} onConfirm={() => issue.run()}>
          <Button size="small" type="link" loading={issue.isPending}>{t('backupCode')}</Button>
        </Popconfirm>
      )}
      <Modal open={codes !== undefined} title={t('backupCodeTitle')} onCancel={() => setCodes(undefined)}
        footer={<Button type="primary" onClick={() => setCodes(undefined)}>{t('close')}</Button>}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {codes?.map((code) => (
            <div key={code.id}>
              <Typography.Text type="secondary">{code.lockName}</Typography.Text>
              {code.issuedBy === BACKUP_CODE_JOB_USERNAME && <Tag color="blue" style={{ marginLeft: 8 }}>{t('backupCodeAuto')}</Tag>}
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
