/**
 * "Add password" of 密码管理: a lock, an optional holder, permanent or temporary; a temporary one is
 * one-time (valid 24 h) or valid in a window picked to the minute. Digits are optional (the platform
 * draws random ones of the model's length); the model's digit rule is shown and checked.
 */
import { credentialEndpoints } from '@iot/contract';
import { DatePicker, Form, Input, Modal, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { LockSelect } from '../../components/LockSelect';
import { MINUTE_FORMAT, useOperation } from '../../components/credential/shared';
import { UserSelect } from '../../components/credential/UserSelect';
import { maxChars } from '../../components/formRules';
import { fromPicker } from '../../lib/timeZone';

interface Values {
  lockId: number;
  lockUserId?: number;
  kind: 'password' | 'tempPassword';
  mode: 'oneTime' | 'window';
  window?: [Dayjs, Dayjs];
  password?: string;
}

export interface PasswordModalProps {
  open: boolean;
  /** Preselected lock (the page's). */
  lockId?: number;
  onClose(): void;
}

/** The modal form. */
export function PasswordModal({ open, lockId, onClose }: PasswordModalProps) {
  const { t } = useTranslation('credential');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(credentialEndpoints.passwordList, credentialEndpoints.capacity);
  const chosenLock = Form.useWatch('lockId', form);
  const kind = Form.useWatch('kind', form);
  const mode = Form.useWatch('mode', form);
  const digits = useDigits(chosenLock);

  const submit = async (v: Values) => {
    setSaving(true);
    const password = v.password?.trim() || undefined;
    const window = v.kind === 'tempPassword' && v.mode === 'window' && v.window
      ? { validFrom: fromPicker(v.window[0].second(0)).format(), validTo: fromPicker(v.window[1].second(0)).format() } : {};
    const result = await operate(() => (v.kind === 'password'
      ? call(credentialEndpoints.foreverPassword, { body: { action: 'add', lockId: v.lockId, lockUserId: v.lockUserId, password } })
      : call(credentialEndpoints.tempPassword, { body: { action: 'add', lockId: v.lockId, lockUserId: v.lockUserId, password, oneTime: v.mode === 'oneTime', ...window } })), t('saved'), form);
    setSaving(false);
    if (result) onClose();
  };

  return (
    <Modal open={open} title={t('addPassword')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()} onCancel={onClose}
      afterClose={() => form.resetFields()} afterOpenChange={(opened) => opened && form.setFieldsValue({ lockId })} forceRender className="password-modal">
      <Form form={form} layout="vertical" initialValues={{ kind: 'tempPassword', mode: 'window' }} onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item htmlFor="password-lock" name="lockId" label={t('lock')} rules={[{ required: true }]}>
          <LockSelect byId id="password-lock" block />
        </Form.Item>
        {chosenLock !== undefined && (
          <Form.Item htmlFor="password-holder" name="lockUserId" label={t('holderOptional')}><UserSelect lockId={chosenLock} id="password-holder" /></Form.Item>
        )}
        <Form.Item name="kind" label={t('kind')}>
          <Radio.Group options={(['password', 'tempPassword'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
        </Form.Item>
        {kind === 'tempPassword' && (
          <Form.Item name="mode" label={t('validityMode')}>
            <Radio.Group options={(['oneTime', 'window'] as const).map((m) => ({ value: m, label: t(`validityModes.${m}`) }))} />
          </Form.Item>
        )}
        {kind === 'tempPassword' && mode === 'window' && (
          <Form.Item htmlFor="password-window" name="window" label={t('validity')} rules={[{ required: true }]}>
            <DatePicker.RangePicker id="password-window" showTime={{ format: 'HH:mm' }} format={MINUTE_FORMAT} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item htmlFor="password-digits" name="password" label={t('password')} extra={t('passwordOptional', digits)}
          rules={[maxChars(digits.max), { pattern: new RegExp(`^\\d{${digits.min},${digits.max}}$`), message: t('passwordInvalid', digits) }]}>
          <Input id="password-digits" inputMode="numeric" autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The digit rule of the chosen lock's model (6-9 until known). */
function useDigits(lockId: number | undefined): { min: number; max: number } {
  const { data } = useApiQuery(credentialEndpoints.capacity, { lockId: lockId ?? 0 }, { enabled: lockId !== undefined });
  return lockId !== undefined && data ? data.passwordDigits : { min: 6, max: 9 };
}
