/**
 * Add or modify a lock user of 用户管理 (POST /iot/v1/zg/userOperation): lock (when adding), name,
 * phone and an optional validity window to the minute. The lock confirms asynchronously (sync state).
 */
import { credentialEndpoints, type LockUserRecord } from '@iot/contract';
import { DatePicker, Form, Input, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { LockSelect } from '../../components/LockSelect';
import { MINUTE_FORMAT, useOperation } from './shared';
import { maxChars } from '../../components/formRules';
import { fromPicker, toPicker } from '../../app/timeZone';

interface Values { lockId: number; name: string; phone?: string; window?: [Dayjs | null, Dayjs | null] }

export interface UserModalProps {
  open: boolean;
  /** The user to modify; undefined: add. */
  user?: LockUserRecord;
  lockId?: number;
  onClose(): void;
}

/** The modal form. */
export function UserModal({ open, user, lockId, onClose }: UserModalProps) {
  const { t } = useTranslation('credential');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(credentialEndpoints.userList, credentialEndpoints.capacity);
  const submit = async (v: Values) => {
    setSaving(true);
    const [from, to] = v.window ?? [];
    const validity = { validFrom: from ? fromPicker(from.second(0)).format() : undefined, validTo: to ? fromPicker(to.second(0)).format() : undefined };
    const phone = v.phone?.trim() || undefined;
    const done = await operate(() => (user
      ? call(credentialEndpoints.userOperation, { body: { action: 'modify', id: user.id, name: v.name.trim(), phone: phone ?? null, ...validity } })
      : call(credentialEndpoints.userOperation, { body: { action: 'add', lockId: v.lockId, name: v.name.trim(), phone, ...validity } })), t('saved'), form);
    setSaving(false);
    if (done) onClose();
  };
  const fill = () => form.setFieldsValue(user
    ? { name: user.name, phone: user.phone ?? undefined, window: [user.validFrom ? toPicker(user.validFrom) : null, user.validTo ? toPicker(user.validTo) : null] }
    : { lockId });
  return (
    <Modal open={open} title={user ? t('modify') : t('addUser')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()}
      onCancel={onClose} afterClose={() => form.resetFields()} afterOpenChange={(opened) => opened && fill()} forceRender className="user-modal">
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        {!user && (
          <Form.Item name="lockId" label={t('lock')} rules={[{ required: true }]}>
            <LockSelect byId id="user-lock" />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true }, maxChars(64)]}>
          <Input id="user-name" />
        </Form.Item>
        <Form.Item name="phone" label={t('phone')} rules={[maxChars(21), { pattern: /^\+?\d{5,20}$/, message: t('phoneInvalid') }]}>
          <Input id="user-phone" />
        </Form.Item>
        <Form.Item name="window" label={t('validity')} extra={t('validityHint')}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={MINUTE_FORMAT} allowEmpty={[true, true]} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
