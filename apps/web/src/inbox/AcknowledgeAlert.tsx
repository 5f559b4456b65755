/**
 * Acknowledging one lock alert with an optional note (issue #25; POST /iot/v1/lockAlert/acknowledge
 * with `note`): a confirmation holding a note field, used by 门锁警告 and the header's inbox drawer.
 */
import { ACKNOWLEDGE_NOTE_MAX, alertEndpoints, notificationInboxEndpoints } from '@iot/contract';
import { Button, Input, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';

/** Acknowledges the alerts among `ids` with `note` (empty: none); toasts and refreshes the alert lists and the inbox. */
export function useAcknowledgeAlerts() {
  const { t } = useTranslation('inbox');
  return useApiMutation({
    mutationFn: ({ ids, note }: { ids: number[]; note?: string }) => call(alertEndpoints.acknowledge, { body: { ids, ...(note?.trim() ? { note: note.trim() } : {}) } }),
    success: () => t('acknowledgedToast'),
    invalidate: [alertEndpoints.list, notificationInboxEndpoints.list],
  });
}

/** The "acknowledge" link of alert `alertId`, confirming with a note field. */
export function AcknowledgeAlertButton({ alertId, size = 'small' }: { alertId: number; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('inbox');
  const [note, setNote] = useState('');
  const { run } = useAcknowledgeAlerts();
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
