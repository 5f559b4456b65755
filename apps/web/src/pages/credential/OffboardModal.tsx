/**
 * "Offboard a person" of 用户管理 (POST /iot/v1/operateUser/offboard): find the person by phone or name,
 * confirm, and every lock user and credential of theirs is revoked on every lock; the per-lock progress
 * follows the commands until all are final.
 */
import { credentialEndpoints } from '@iot/contract';
import { Button, Form, Input, Modal, Popconfirm, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useInvalidate } from '../../api/useInvalidate';
import { MultiLockProgress, type Locks } from './MultiLockProgress';

interface Values { by: 'phone' | 'name'; who: string }

/** The modal. */
export function OffboardModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('credential');
  const [form] = Form.useForm<Values>();
  const [locks, setLocks] = useState<Locks>();
  const lists = [credentialEndpoints.userList, credentialEndpoints.passwordList, credentialEndpoints.cardList, credentialEndpoints.fpList];
  const refresh = useInvalidate(...lists);
  const offboard = useApiMutation({
    mutationFn: (body: { phone: string } | { name: string }) => call(credentialEndpoints.offboard, { body }),
    invalidate: lists,
    onSuccess: (result) => setLocks(result.locks),
  });
  const start = async () => {
    const { by, who } = await form.validateFields();
    await offboard.run(by === 'phone' ? { phone: who.trim() } : { name: who.trim() });
  };
  const close = () => { setLocks(undefined); form.resetFields(); void refresh(); onClose(); };
  return (
    <Modal open={open} title={t('offboardTitle')} onCancel={close} width={720} className="offboard-modal" forceRender
      footer={locks ? <Button onClick={close}>{t('close')}</Button> : (
        <>
          <Button onClick={close}>{t('cancel')}</Button>
          <Popconfirm title={t('offboardConfirm')} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={start}>
            <Button type="primary" danger loading={offboard.isPending}>{t('offboardStart')}</Button>
          </Popconfirm>
        </>
      )}>
      {locks ? <MultiLockProgress locks={locks} /> : (
        <>
          <Typography.Paragraph type="secondary">{t('offboardHint')}</Typography.Paragraph>
          <Form form={form} layout="vertical" initialValues={{ by: 'phone' }} autoComplete="off">
            <Form.Item name="by" label={t('offboardBy')}>
              <Radio.Group options={[{ value: 'phone', label: t('offboardByPhone') }, { value: 'name', label: t('offboardByName') }]} />
            </Form.Item>
            <Form.Item name="who" label={t('phoneOrName')} rules={[{ required: true, whitespace: true, message: t('required') }]}>
              <Input id="offboard-who" maxLength={64} />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
