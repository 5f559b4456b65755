/**
 * The step-up dialog (docs/identity.md): mounted once in the console, it answers
 * the HTTP client's requests (api/stepUp.ts) when a dangerous call was refused with 403
 * STEP_UP_REQUIRED: it asks for the authenticator code (or a recovery code), posts
 * /iot/v1/twoFactor/stepUp and then lets the client send the call again; cancel rejects the call.
 */
import { twoFactorEndpoints as api } from '@iot/contract';
import { Alert, Input, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../api/client';
import { setStepUpPrompt } from '../api/stepUp';

/** A 6-digit authenticator code or a recovery code `xxxxx-xxxxx` (contract twoFactorCode). */
const CODE = /^(\d{6}|[0-9a-z]{5}-[0-9a-z]{5})$/i;

/** The console's one step-up dialog. */
export function StepUpModal() {
  const { t } = useTranslation('twoFactor');
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  // Each request gets a fresh dialog: a reopened one stayed transparent behind its mask (seen in Chromium).
  const [round, setRound] = useState(0);
  const answer = useRef<(proven: boolean) => void>(undefined);

  useEffect(() => {
    setStepUpPrompt(() => new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setCode('');
      setError(undefined);
      setRound((value) => value + 1);
      setOpen(true);
    }));
    return () => setStepUpPrompt(undefined);
  }, []);

  const finish = (proven: boolean) => {
    setOpen(false);
    answer.current?.(proven);
    answer.current = undefined;
  };
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
    <Modal key={round} open={open} title={t('stepUpTitle')} okText={t('stepUpConfirm')} cancelText={t('cancel')} confirmLoading={sending}
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
