/**
 * Acknowledging one alert with an optional note: a lock alert (POST
 * /iot/v1/lockAlert/acknowledge) or an air-switch alert (POST /iot/v1/airSwitch/alertLog/acknowledge),
 * both with `note`: a confirmation holding a note field, used by 门锁警告, the air-switch alert log and
 * the header's inbox drawer.
 */
import { ACKNOWLEDGE_NOTE_MAX, airSwitchAlertLogEndpoints, airSwitchEndpoints, alertEndpoints, notificationInboxEndpoints } from '@iot/contract';
import { Button, Input, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';

/** Whose alerts: a lock's or an air switch's (both rows of the server's one alerts table; each kind acknowledges through its own route). */
export type AlertDeviceKind = 'lock' | 'airSwitch';

/** Acknowledges the `deviceKind` alerts among `ids` with `note` (empty: none); toasts and refreshes the alert lists and the inbox. */
export function useAcknowledgeAlerts(deviceKind: AlertDeviceKind = 'lock') {
  const { t } = useTranslation('inbox');
  const endpoint = deviceKind === 'lock' ? alertEndpoints.acknowledge : airSwitchAlertLogEndpoints.acknowledge;
  return useApiMutation({
    mutationFn: ({ ids, note }: { ids: number[]; note?: string }) => call(endpoint, { body: { ids, ...(note?.trim() ? { note: note.trim() } : {}) } }),
    success: () => t('acknowledgedToast'),
    invalidate: deviceKind === 'lock'
      ? [alertEndpoints.list, notificationInboxEndpoints.list]
      : [airSwitchAlertLogEndpoints.list, airSwitchEndpoints.alerts, notificationInboxEndpoints.list],
  });
}

/** The "acknowledge" link of alert `alertId` (of a lock unless `deviceKind` says otherwise), confirming with a note field. */
export function AcknowledgeAlertButton({ alertId, deviceKind = 'lock', size = 'small' }: { alertId: number; deviceKind?: AlertDeviceKind; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('inbox');
  const [note, setNote] = useState('');
  const { run } = useAcknowledgeAlerts(deviceKind);
  return (
    <Popconfirm
      title={t('acknowledgeTitle')}
      description={(
        <Input.TextArea
          aria-label={t('acknowledgeNote')} placeholder={t('acknowledgeNotePlaceholder')} maxLength={ACKNOWLEDGE_NOTE_MAX}
          autoSize={{ minRows: 2, maxRows: 4 }} value={note} onChange={(event) => setNote(event.target.value)} style={{ width: 260 }}
        />
      )}
      onConfirm={() => run({ ids: [alertId], note }).then(() => setNote(''))}
    >
      <Button type="link" size={size} onClick={(event) => event.stopPropagation()}>{t('acknowledge')}</Button>
    </Popconfirm>
  );
}
