/**
 * Add or modify a schedule of 时间表管理 (POST /iot/v1/accessSchedule/operate): the lock and its user
 * (when adding), then the schedule. The lock confirms asynchronously (添加中 -> 正常); refusals
 * (duplicate, overlap, capacity) come back as the server's messages.
 */
import { type AccessScheduleRecord, accessScheduleEndpoints, credentialEndpoints } from '@iot/contract';
import { Form, Modal } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { LockSelect } from '../../components/LockSelect';
import { useOperation } from '../../components/credential/shared';
import { UserSelect } from '../../components/credential/UserSelect';
import { ScheduleFields, type ScheduleValues, toSchedule } from './ScheduleFields';

interface Values extends ScheduleValues { lockId?: number; lockUserId?: number }

export interface ScheduleModalProps {
  open: boolean;
  /** The schedule to modify; undefined: add. */
  schedule?: AccessScheduleRecord;
  lockId?: number;
  onClose(): void;
}

/** The modal form. */
export function ScheduleModal({ open, schedule, lockId, onClose }: ScheduleModalProps) {
  const { t } = useTranslation('accessSchedule');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(accessScheduleEndpoints.list, credentialEndpoints.userList);
  const chosenLock = Form.useWatch('lockId', form);
  const kind = Form.useWatch('kind', form);
  const submit = async (v: Values) => {
    setSaving(true);
    const body = schedule ? { action: 'modify' as const, id: schedule.id, schedule: toSchedule(v) } : { action: 'add' as const, lockUserId: v.lockUserId as number, schedule: toSchedule(v) };
    const done = await operate(() => call(accessScheduleEndpoints.operate, { body }), t('saved'));
    setSaving(false);
    if (done) onClose();
  };
  const fill = () => {
    if (!schedule) return form.setFieldsValue({ lockId, kind: 'weekDay', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] });
    const at = (hhmm: string | null) => dayjs(`2000-01-01T${hhmm ?? '00:00'}`);
    form.setFieldsValue(schedule.kind === 'weekDay'
      ? { kind: 'weekDay', days: schedule.days, times: [at(schedule.startTime), at(schedule.endTime)] }
      : { kind: 'yearDay', range: [dayjs(schedule.localStartTime), dayjs(schedule.localEndTime)] });
  };
  return (
    <Modal open={open} title={schedule ? t('modify') : t('add')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()}
      onCancel={onClose} afterClose={() => form.resetFields()} afterOpenChange={(opened) => opened && fill()} forceRender className="schedule-modal">
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        {!schedule && (
          <>
            <Form.Item htmlFor="schedule-lock" name="lockId" label={t('lock')} rules={[{ required: true, message: t('required') }]}><LockSelect byId id="schedule-lock" block /></Form.Item>
            {chosenLock !== undefined && (
              <Form.Item htmlFor="schedule-user" name="lockUserId" label={t('user')} rules={[{ required: true, message: t('required') }]}><UserSelect lockId={chosenLock} id="schedule-user" /></Form.Item>
            )}
          </>
        )}
        <ScheduleFields kind={schedule?.kind ?? kind} kindLocked={schedule !== undefined} />
      </Form>
    </Modal>
  );
}
