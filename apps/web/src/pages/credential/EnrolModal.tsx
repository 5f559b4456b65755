/**
 * Remote fingerprint enrolment of 指纹管理 (POST /iot/v1/zg/addFingerPrint): pick the lock and the lock
 * user; the lock enters enrolment mode and the person places the finger. The progress (the command's
 * state, the row's sync state) is followed live until the lock reports the slot or a failure.
 */
import { credentialEndpoints, type CredentialRecord } from '@iot/contract';
import { Alert, Button, Descriptions, Form, Modal, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { LockSelect } from '../../components/LockSelect';
import { StateBadge } from '../../components/CommandTags';
import { useOperation } from '../../components/credential/shared';
import { SyncStateBadge, syncFailed } from '../../components/credential/SyncStateBadge';
import { UserSelect } from '../../components/credential/UserSelect';

interface Values { lockId: number; lockUserId: number }
const POLL_MS = 1000;

/** The modal: a form, then the live progress of the enrolment. */
export function EnrolModal({ open, lockId, onClose }: { open: boolean; lockId?: number; onClose(): void }) {
  const { t } = useTranslation('credential');
  const [form] = Form.useForm<Values>();
  const [started, setStarted] = useState<CredentialRecord>();
  const [busy, setBusy] = useState(false);
  const operate = useOperation(credentialEndpoints.fpList, credentialEndpoints.capacity);
  const chosenLock = Form.useWatch('lockId', form);
  const submit = async (v: Values) => {
    setBusy(true);
    const row = await operate(() => call(credentialEndpoints.addFingerPrint, { body: { action: 'add', lockId: v.lockId, lockUserId: v.lockUserId } }), t('enrolHint'), form);
    setBusy(false);
    if (row) setStarted(row);
  };
  const close = () => { setStarted(undefined); form.resetFields(); onClose(); };
  return (
    <Modal open={open} title={t('enrolTitle')} onCancel={close} forceRender className="enrol-modal"
      footer={started ? <Button onClick={close}>{t('close')}</Button> : (
        <><Button onClick={close}>{t('cancel')}</Button><Button type="primary" loading={busy} onClick={() => form.submit()}>{t('enrol')}</Button></>
      )}
      afterOpenChange={(opened) => opened && form.setFieldsValue({ lockId })}>
      {started ? <EnrolProgress row={started} /> : (
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
          <Form.Item htmlFor="fp-lock" name="lockId" label={t('lock')} rules={[{ required: true }]}><LockSelect byId id="fp-lock" block /></Form.Item>
          {chosenLock !== undefined && (
            <Form.Item htmlFor="fp-user" name="lockUserId" label={t('holder')} rules={[{ required: true }]}><UserSelect lockId={chosenLock} id="fp-user" /></Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}

/** The enrolment row, refetched every second until its sync state is final. */
function EnrolProgress({ row }: { row: CredentialRecord }) {
  const { t } = useTranslation('credential');
  const query = { lockId: row.lockId, lockUserId: row.lockUserId ?? undefined, current: 1, size: 100 };
  const { data } = useApiQuery(credentialEndpoints.fpList, query, { refetchInterval: POLL_MS });
  const live = data?.records.find((r) => r.id === row.id) ?? row;
  const done = live.syncState === 'normal';
  const failed = syncFailed(live.syncState);
  return (
    <div className="enrol-progress" data-sync={live.syncState}>
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('lock')}>{live.lockName} ({live.imei})</Descriptions.Item>
        <Descriptions.Item label={t('holder')}>{live.holderName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('enrolState')}>{live.lastCommandState ? <StateBadge state={live.lastCommandState} /> : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('syncState')}><SyncStateBadge row={live} log /></Descriptions.Item>
      </Descriptions>
      {done && <Alert type="success" showIcon title={t('enrolDone', { slot: live.slot ?? '—' })} />}
      {failed && <Alert type="error" showIcon title={t('enrolFailed', { detail: t(`syncStates.${live.syncState}`) })} />}
      {!done && !failed && <Alert type="info" showIcon icon={<Spin size="small" />} title={t('enrolWaiting')} description={t('enrolHint')} />}
    </div>
  );
}
