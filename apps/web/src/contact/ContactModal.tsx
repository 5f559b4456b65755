/**
 * The signed-in person's contact details (contract api/accountContact.ts): e-mail
 * address (verified or not), mobile number (mainland China) and the language of e-mails. Saving a new
 * address un-verifies it; "verify" e-mails a 6-digit code and opens VerifyCodeModal to enter it.
 * Notification rules e-mail only verified addresses.
 */
import { type AccountContactBody, accountContactEndpoints as api, LANGUAGES, MOBILE_CN } from '@iot/contract';
import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { useApiQuery } from '../api/useApiQuery';
import { VerifyCodeModal } from './VerifyCodeModal';

interface Values { email?: string; mobile?: string; language?: AccountContactBody['language'] }

/** The dialog of the header's contact button. */
export default function ContactModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('contact');
  const [form] = Form.useForm<Values>();
  const contact = useApiQuery(api.get);
  const [verifying, setVerifying] = useState(false);
  const save = useApiMutation({
    form,
    mutationFn: (values: Values) => call(api.save, { body: { email: values.email?.trim() || null, mobile: values.mobile?.trim() || null, language: values.language ?? null } }),
    success: t('saved'), invalidate: [api.get],
  });
  const send = useApiMutation({
    form, fields: { 'body.email': 'email' },
    mutationFn: () => call(api.sendCode),
    invalidate: [api.get],
    onSuccess: (result) => { if (result.sent) setVerifying(true); },
  });
  useEffect(() => {
    if (contact.data) form.setFieldsValue({ email: contact.data.email ?? '', mobile: contact.data.mobile ?? '', language: contact.data.language });
  }, [contact.data, form]);
  const typed = Form.useWatch('email', form);
  const data = contact.data;
  // Verify the saved address only: a typed, unsaved one is saved first.
  const saved = Boolean(data?.email) && data?.email === (typed ?? '').trim();

  return (
    <Modal open={open} title={t('title')} onCancel={onClose} okText={t('save')} cancelText={t('close')} onOk={() => form.submit()} confirmLoading={save.isPending} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Form.Item label={t('email')} extra={<>
          {data?.email && (data.emailVerifiedAt ? <Tag color="success" icon={<CheckCircleFilled />}>{t('verified')}</Tag> : <Tag color="warning">{t('unverified')}</Tag>)}
          {send.data && !send.data.sent && <Typography.Text type="danger">{t('sendFailed', { error: send.data.error })}</Typography.Text>}
        </>}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="email" noStyle rules={[{ type: 'email', message: t('emailInvalid') }]}><Input id="contact-email" placeholder="name@example.com" /></Form.Item>
            <Button disabled={!saved || Boolean(data?.emailVerifiedAt)} loading={send.isPending} onClick={() => void send.run()}>{t('verify')}</Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item htmlFor="contact-mobile" name="mobile" label={t('mobile')} rules={[{ pattern: MOBILE_CN, message: t('mobileInvalid') }]}>
          <Input id="contact-mobile" maxLength={11} inputMode="numeric" placeholder="13800138000" />
        </Form.Item>
        <Form.Item htmlFor="contact-language" name="language" label={t('language')} tooltip={t('languageHint')}>
          <Select id="contact-language" allowClear placeholder={t('languageChannel')} options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
        </Form.Item>
      </Form>
      {verifying && data?.email && <VerifyCodeModal email={data.email} expiresAt={data.codeExpiresAt} onClose={() => setVerifying(false)} />}
    </Modal>
  );
}
