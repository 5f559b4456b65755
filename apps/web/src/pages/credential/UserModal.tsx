/**
 * Add or modify a lock user of 用户管理 (POST /iot/v1/zg/userOperation): lock (when adding), name,
 * phone, an optional validity window to the minute and the Matter user type, with the
 * minutes of an expiring user and the credential rule where the lock's device type supports dual.
 * The lock confirms asynchronously (sync state).
 */
import { CREDENTIAL_RULE_LABELS, type CredentialRule, credentialEndpoints, type LockUserRecord, USER_TYPE_LABELS, USER_TYPES, type UserType } from '@iot/contract';
import { DatePicker, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { useLanguage } from '../../hooks/useSession';
import { LockSelect } from '../../components/LockSelect';
import { MINUTE_FORMAT, useOperation } from '../../components/credential/shared';
import { maxChars } from '../../components/formRules';
import { fromPicker, toPicker } from '../../lib/timeZone';

interface Values {
  lockId: number; name: string; phone?: string; window?: [Dayjs | null, Dayjs | null];
  userType: UserType; credentialRule: CredentialRule; expiringMinutes?: number;
}

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
  const language = useLanguage();
  const chosenLock = Form.useWatch('lockId', form) ?? user?.lockId;
  const userType = Form.useWatch('userType', form);
  const { data: capacity } = useApiQuery(credentialEndpoints.capacity, { lockId: chosenLock ?? 0 }, { enabled: open && chosenLock !== undefined });
  const rules = capacity?.access.credentialRulesSupport ?? ['single'];
  const submit = async (v: Values) => {
    setSaving(true);
    const [from, to] = v.window ?? [];
    const validity = { validFrom: from ? fromPicker(from.second(0)).format() : undefined, validTo: to ? fromPicker(to.second(0)).format() : undefined };
    const phone = v.phone?.trim() || undefined;
    const kind = { userType: v.userType, credentialRule: v.credentialRule, ...(v.userType === 'expiringUser' ? { expiringMinutes: v.expiringMinutes } : {}) };
    const done = await operate(() => (user
      ? call(credentialEndpoints.userOperation, { body: { action: 'modify', id: user.id, name: v.name.trim(), phone: phone ?? null, ...validity, ...kind } })
      : call(credentialEndpoints.userOperation, { body: { action: 'add', lockId: v.lockId, name: v.name.trim(), phone, ...validity, ...kind } })), t('saved'), form);
    setSaving(false);
    if (done) onClose();
  };
  const fill = () => form.setFieldsValue(user
    ? { name: user.name, phone: user.phone ?? undefined, window: [user.validFrom ? toPicker(user.validFrom) : null, user.validTo ? toPicker(user.validTo) : null],
      userType: user.userType, credentialRule: user.credentialRule, expiringMinutes: user.expiringMinutes ?? undefined }
    : { lockId, userType: 'unrestrictedUser', credentialRule: 'single' });
  return (
    <Modal open={open} title={user ? t('modify') : t('addUser')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()}
      onCancel={onClose} afterClose={() => form.resetFields()} afterOpenChange={(opened) => opened && fill()} forceRender className="user-modal">
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        {!user && (
          <Form.Item htmlFor="user-lock" name="lockId" label={t('lock')} rules={[{ required: true }]}>
            <LockSelect byId id="user-lock" block />
          </Form.Item>
        )}
        <Form.Item htmlFor="user-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true }, maxChars(64)]}>
          <Input id="user-name" />
        </Form.Item>
        <Form.Item htmlFor="user-phone" name="phone" label={t('phone')} rules={[maxChars(21), { pattern: /^\+?\d{5,20}$/, message: t('phoneInvalid') }]}>
          <Input id="user-phone" />
        </Form.Item>
        <Form.Item name="window" label={t('validity')} extra={t('validityHint')}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={MINUTE_FORMAT} allowEmpty={[true, true]} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item htmlFor="user-type" name="userType" label={t('userType')} extra={t('userTypeHint')}>
          <Select id="user-type" options={USER_TYPES.map((type) => ({ value: type, label: USER_TYPE_LABELS[type][language] }))} />
        </Form.Item>
        {userType === 'expiringUser' && (
          <Form.Item htmlFor="user-expiring" name="expiringMinutes" label={t('expiringMinutes')} rules={[{ required: true, message: t('required') }]}>
            <InputNumber id="user-expiring" min={1} max={2880} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="credentialRule" label={t('credentialRule')} extra={rules.includes('dual') ? t('dualHint') : t('dualUnsupported')}>
          <Radio.Group options={(['single', 'dual'] as const).map((rule) => ({ value: rule, label: CREDENTIAL_RULE_LABELS[rule][language], disabled: !rules.includes(rule) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
