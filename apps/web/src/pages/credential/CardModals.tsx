/**
 * Card dialogs of 卡片管理 (POST /iot/v1/zg/cardOperate): "add card" (lock, optional holder, card
 * number, reversed byte order) and "report lost" (that card number is deleted on every lock holding it,
 * after confirmation; per-lock progress until every command is final).
 */
import { credentialEndpoints } from '@iot/contract';
import { Button, Checkbox, Form, Input, Modal, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { LockSelect } from '../../components/LockSelect';
import { MultiLockProgress, type Locks } from '../../components/credential/MultiLockProgress';
import { useOperation } from '../../components/credential/shared';
import { UserSelect } from '../../components/credential/UserSelect';
import { maxChars } from '../../components/formRules';

interface Values { lockId: number; lockUserId?: number; cardNumber: string; reversed: boolean }
const CARD = /^[0-9A-Fa-f]{8,20}$/;
const LISTS = [credentialEndpoints.cardList, credentialEndpoints.capacity];

/** Card number and reversed-bytes fields. */
function CardFields() {
  const { t } = useTranslation('credential');
  return (
    <>
      <Form.Item htmlFor="card-number" name="cardNumber" label={t('cardNumber')} rules={[{ required: true }, maxChars(20), { pattern: CARD, message: t('cardInvalid') }]}>
        <Input id="card-number" />
      </Form.Item>
      <Form.Item name="reversed" valuePropName="checked" extra={t('reversedHint')}><Checkbox>{t('reversed')}</Checkbox></Form.Item>
    </>
  );
}

/** Adds a card to a lock. */
export function CardModal({ open, lockId, onClose }: { open: boolean; lockId?: number; onClose(): void }) {
  const { t } = useTranslation('credential');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(...LISTS);
  const chosenLock = Form.useWatch('lockId', form);
  const submit = async (v: Values) => {
    setSaving(true);
    const done = await operate(() => call(credentialEndpoints.cardOperate, {
      body: { action: 'add', lockId: v.lockId, lockUserId: v.lockUserId, cardNumber: v.cardNumber.trim(), reversed: v.reversed ?? false },
    }), t('saved'), form);
    setSaving(false);
    if (done) onClose();
  };
  return (
    <Modal open={open} title={t('addCard')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()} onCancel={onClose}
      afterClose={() => form.resetFields()} afterOpenChange={(opened) => opened && form.setFieldsValue({ lockId })} forceRender>
      <Form form={form} layout="vertical" initialValues={{ reversed: false }} onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item htmlFor="card-lock" name="lockId" label={t('lock')} rules={[{ required: true }]}><LockSelect byId id="card-lock" block /></Form.Item>
        {chosenLock !== undefined && <Form.Item name="lockUserId" label={t('holderOptional')}><UserSelect lockId={chosenLock} /></Form.Item>}
        <CardFields />
      </Form>
    </Modal>
  );
}

/** Reports a card number lost on every lock; `card`: the row it was opened from (its number filled in). */
export function ReportLostModal({ open, card: from, onClose }: { open: boolean; card?: { cardNumber: string; reversed: boolean }; onClose(): void }) {
  const { t } = useTranslation('credential');
  const [form] = Form.useForm<Values>();
  const [locks, setLocks] = useState<Locks>();
  const operate = useOperation(...LISTS);
  const card = Form.useWatch('cardNumber', form);
  const start = async () => {
    const v = await form.validateFields();
    const result = await operate(() => call(credentialEndpoints.cardOperate, { body: { action: 'reportLost', cardNumber: v.cardNumber.trim(), reversed: v.reversed ?? false } }),
      t('saved'), form);
    if (result) setLocks(result.locks);
  };
  const close = () => { setLocks(undefined); form.resetFields(); onClose(); };
  return (
    <Modal open={open} title={t('reportLostTitle')} onCancel={close} width={720} forceRender
      afterOpenChange={(opened) => opened && from && form.setFieldsValue(from)}
      footer={locks ? <Button onClick={close}>{t('close')}</Button> : (
        <>
          <Button onClick={close}>{t('cancel')}</Button>
          <Popconfirm title={t('reportLostConfirm', { card: card ?? '' })} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={start}>
            <Button type="primary" danger>{t('reportLost')}</Button>
          </Popconfirm>
        </>
      )}>
      {locks ? <MultiLockProgress locks={locks} /> : (
        <Form form={form} layout="vertical" initialValues={{ reversed: false }} autoComplete="off"><CardFields /></Form>
      )}
    </Modal>
  );
}
