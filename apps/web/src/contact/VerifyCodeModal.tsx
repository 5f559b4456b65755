/** The small dialog that takes the 6-digit code e-mailed to the person's address (ContactModal). */
import { accountContactEndpoints as api } from '@iot/contract';
import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { formatTime } from '../lib/timeZone';

/** Enter the code sent to `email` (valid until `expiresAt`, ISO 8601). */
export function VerifyCodeModal({ email, expiresAt, onClose }: { email: string; expiresAt: string | null; onClose(): void }) {
  const { t } = useTranslation('contact');
  const [form] = Form.useForm<{ code: string }>();
  const verify = useApiMutation({
    form, mutationFn: ({ code }: { code: string }) => call(api.verify, { body: { code: code.trim() } }),
    success: t('verifiedToast'), invalidate: [api.get], onSuccess: onClose,
  });
  return (
    <Modal open width={400} title={t('verifyTitle')} okText={t('confirm')} cancelText={t('cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={verify.isPending}>
      <Typography.Paragraph>{t('codeSent', { email })}</Typography.Paragraph>
      {expiresAt && <Typography.Paragraph type="secondary">{t('codeExpires', { time: formatTime(expiresAt) })}</Typography.Paragraph>}
      <Form form={form} layout="vertical" onFinish={(values) => void verify.run(values)} autoComplete="off">
        <Form.Item htmlFor="contact-code" name="code" label={t('code')} rules={[{ required: true, pattern: /^\d{6}$/, message: t('codeInvalid') }]}>
          <Input id="contact-code" maxLength={6} inputMode="numeric" autoComplete="one-time-code" autoFocus style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
