/**
 * "Offboard a person" of 用户管理: find the person by phone or name, see what will be revoked (GET
 * /iot/v1/operateUser/offboardPreview: per lock, their lock users and credentials), confirm, and every
 * lock user and credential of theirs is revoked on every lock (POST /iot/v1/operateUser/offboard); the
 * per-lock progress follows the commands until all are final. Nobody found: says nothing is to revoke.
 */
import { credentialEndpoints, listText, type OffboardPreview, offboardEndpoints } from '@iot/contract';
import { Alert, Button, Form, Input, Modal, Popconfirm, Radio, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useInvalidate } from '../../api/useInvalidate';
import { MultiLockProgress, type Locks } from '../../components/credential/MultiLockProgress';
import { maxChars } from '../../components/formRules';
import { useLanguage } from '../../hooks/useSession';

interface Values { by: 'phone' | 'name'; who: string }
type Who = { phone: string } | { name: string };

/** The modal. */
export function OffboardModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('credential');
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const [preview, setPreview] = useState<{ who: Who; found: OffboardPreview }>();
  const [locks, setLocks] = useState<Locks>();
  const lists = [credentialEndpoints.userList, credentialEndpoints.passwordList, credentialEndpoints.cardList, credentialEndpoints.fpList];
  const refresh = useInvalidate(...lists);
  const look = useApiMutation({
    mutationFn: async (who: Who) => ({ who, found: await call(offboardEndpoints.preview, { query: who }) }),
    onSuccess: setPreview,
  });
  const offboard = useApiMutation({
    mutationFn: (body: Who) => call(credentialEndpoints.offboard, { body }),
    invalidate: lists,
    onSuccess: (result) => setLocks(result.locks),
  });
  const find = async () => {
    const { by, who } = await form.validateFields();
    await look.run(by === 'phone' ? { phone: who.trim() } : { name: who.trim() });
  };
  const close = () => { setLocks(undefined); setPreview(undefined); form.resetFields(); void refresh(); onClose(); };
  const found = preview && preview.found.locks.length > 0;
  const footer = locks ? <Button onClick={close}>{t('close')}</Button> : (
    <>
      <Button onClick={close}>{t('cancel')}</Button>
      {preview && <Button onClick={() => setPreview(undefined)}>{t('offboardBack')}</Button>}
      {!preview && <Button type="primary" loading={look.isPending} onClick={() => void find()}>{t('offboardFind')}</Button>}
      {found && (
        <Popconfirm title={t('offboardConfirm')} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={() => offboard.run(preview.who)}>
          <Button type="primary" danger loading={offboard.isPending}>{t('offboardStart')}</Button>
        </Popconfirm>
      )}
    </>
  );
  return (
    <Modal open={open} title={t('offboardTitle')} onCancel={close} width={720} className="offboard-modal" forceRender footer={footer}>
      {locks && <MultiLockProgress locks={locks} />}
      {!locks && preview && (found ? (
        <>
          <Typography.Paragraph>{t('offboardPreviewHint', { count: preview.found.locks.length })}</Typography.Paragraph>
          <Table size="small" rowKey="lockId" pagination={false} className="offboard-preview" dataSource={preview.found.locks} columns={[
            { title: t('lock'), key: 'lock', render: (_: unknown, r) => `${r.lockName} (${r.imei})` },
            { title: t('users'), key: 'users', render: (_: unknown, r) => listText(r.users.map((u) => `#${u.userSlot} ${u.name}`), language) },
            { title: t('tables.passwords'), dataIndex: 'passwords', align: 'right' },
            { title: t('tables.cards'), dataIndex: 'cards', align: 'right' },
            { title: t('tables.fingerprints'), dataIndex: 'fingerprints', align: 'right' },
          ]} />
        </>
      ) : <Alert type="info" showIcon className="offboard-nothing" title={t('offboardNothing')} />)}
      {!locks && !preview && (
        <>
          <Typography.Paragraph type="secondary">{t('offboardHint')}</Typography.Paragraph>
          <Form form={form} layout="vertical" initialValues={{ by: 'phone' }} autoComplete="off" onFinish={() => void find()}>
            <Form.Item name="by" label={t('offboardBy')}>
              <Radio.Group options={[{ value: 'phone', label: t('offboardByPhone') }, { value: 'name', label: t('offboardByName') }]} />
            </Form.Item>
            <Form.Item htmlFor="offboard-who" name="who" label={t('phoneOrName')} rules={[{ required: true, whitespace: true }, maxChars(64)]}>
              <Input id="offboard-who" />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
