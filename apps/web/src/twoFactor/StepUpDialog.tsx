/**
 * The step-up dialog (docs/identity.md), shown by StepUpModal.tsx for one request of the HTTP client
 * (api/stepUp.ts) after a dangerous call was refused with 403 STEP_UP_REQUIRED: it asks for the
 * authenticator code (or a recovery code), posts /iot/v1/twoFactor/stepUp and then answers true (the
 * client sends the call again); cancel answers false (the call is rejected).
 */
import { twoFactorEndpoints as api } from '@iot/contract';
import { Alert, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../api/client';

/** A 6-digit authenticator code or a recovery code `xxxxx-xxxxx` (contract twoFactorCode). */
const CODE = /^(\d{6}|[0-9a-z]{5}-[0-9a-z]{5})$/i;

/** The dialog for one request: `open` until answered; `onAnswer` gets true once the code was accepted, false on cancel. */
export default function StepUpDialog({ open, onAnswer }: { open: boolean; onAnswer: (proven: boolean) => void }) {
  const { t } = useTranslation('twoFactor');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);

  const finish = (proven: boolean) => onAnswer(proven);
  const submit = async () => {
    const value = code.trim();
    if (!CODE.test(value)) return setError(t('stepUpCodeInvalid'));
    setSending(true);
    try {
      await call(api.stepUp, { body: { code: value }, quiet: true });
      finish(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal open={open} title={t('stepUpTitle')} okText={t('stepUpConfirm')} cancelText={t('cancel')} confirmLoading={sending}
      onOk={() => void submit()} onCancel={() => finish(false)} maskClosable={false} width={420} zIndex={2000}
      okButtonProps={{ id: 'step-up-confirm' }}>
      <Alert type="warning" showIcon message={t('stepUpWhy')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph>{t('stepUpEnter')}</Typography.Paragraph>
      <Input id="step-up-code" value={code} maxLength={11} inputMode="numeric" autoComplete="one-time-code" autoFocus placeholder={t('code')}
        aria-label={t('code')} status={error ? 'error' : undefined} onPressEnter={() => void submit()}
        onChange={(event) => { setCode(event.target.value); setError(undefined); }} />
      {error && <Typography.Text type="danger" role="alert">{error}</Typography.Text>}
    </Modal>
  );
}
