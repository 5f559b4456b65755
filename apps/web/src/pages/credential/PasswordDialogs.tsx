/**
 * Two small dialogs of 密码管理: "reveal" (POST /iot/v1/operatePassword/reveal, needs
 * VOUCHER_PASSWORD_REVEAL; the server logs each reveal) shows the digits; "try on the keypad" (demo /
 * tests, simulated locks only) types digits on the lock, at the lock's own time or a simulated one
 * (to see a schedule refuse), and shows whether it opened and why not.
 */
import { ACCESS_REFUSAL_LABELS, type AccessRefusal, credentialEndpoints, type CredentialRecord } from '@iot/contract';
import { Alert, Button, DatePicker, Form, Input, Modal, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useLanguage } from '../../hooks/useSession';
import { MINUTE_FORMAT } from '../../components/credential/shared';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

/** Shows the digits of `row` (closed when undefined). */
export function RevealModal({ row, onClose }: { row: CredentialRecord | undefined; onClose(): void }) {
  const { t } = useTranslation('credential');
  const [digits, setDigits] = useState<string>();
  useEffect(() => {
    setDigits(undefined);
    if (!row) return;
    let live = true;
    call(credentialEndpoints.reveal, { body: { id: row.id } }).then((r) => live && setDigits(r.password), onClose);
    return () => { live = false; };
  }, [row, onClose]);
  return (
    <Modal open={row !== undefined && digits !== undefined} title={t('revealTitle')} onCancel={onClose} footer={<Button onClick={onClose}>{t('close')}</Button>} destroyOnHidden>
      <Typography.Title level={2} copyable className="revealed-digits" style={{ letterSpacing: 6, textAlign: 'center' }}>{digits}</Typography.Title>
      <Alert type="warning" showIcon title={t('revealHint')} />
    </Modal>
  );
}

type Outcome = { success: boolean; reason: AccessRefusal | null; slot: number | null };

/** Which lock to try (a password row, or the page's lock). */
export interface TryTarget { lockId: number; lockName?: string }

/** Types digits on the keypad of `target`'s lock (closed when undefined). */
export function TryOpenModal({ target, onClose }: { target: TryTarget | undefined; onClose(): void }) {
  const { t } = useTranslation('credential');
  const language = useLanguage();
  const [digits, setDigits] = useState('');
  const [at, setAt] = useState<Dayjs | null>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const attemptOpen = useApiMutation({
    mutationFn: (lockId: number) => call(credentialEndpoints.attemptOpen, { body: { lockId, method: 'password', password: digits, ...(at ? { at: at.second(0).format() } : {}) } }),
    onSuccess: setOutcome,
    onError: () => setOutcome(undefined),
  });
  const attempt = () => target && attemptOpen.run(target.lockId);
  const close = () => { setDigits(''); setAt(null); setOutcome(undefined); onClose(); };
  return (
    <Modal open={target !== undefined} title={[t('tryOnKeypad'), target?.lockName].filter(Boolean).join(' · ')} onCancel={close} footer={<Button onClick={close}>{t('close')}</Button>} destroyOnHidden className="try-open-modal">
      <Typography.Paragraph type="secondary">{t('tryOnKeypadHint')}</Typography.Paragraph>
      <Form layout="inline" onFinish={() => void attempt()}>
        <Form.Item htmlFor="try-at" label={t('simulatedTime')} tooltip={t('simulatedTimeHint')} style={{ marginBottom: 12 }}>
          <DatePicker id="try-at" showTime={{ format: 'HH:mm' }} format={MINUTE_FORMAT} value={at} onChange={setAt} placeholder={t('lockClock')} />
        </Form.Item>
        <Form.Item htmlFor="try-digits" label={t('digitsToTry')}>
          <Space.Compact>
            <Input id="try-digits" inputMode="numeric" value={digits} onChange={(e) => setDigits(e.target.value.replace(/\D/g, ''))} maxLength={12} />
            <Button type="primary" htmlType="submit" loading={attemptOpen.isPending} disabled={digits.length < 4}>{t('tryOnKeypad')}</Button>
          </Space.Compact>
        </Form.Item>
      </Form>
      {outcome && (
        <Alert style={{ marginTop: 16 }} className="try-open-outcome" data-success={String(outcome.success)} showIcon type={outcome.success ? 'success' : 'error'}
          title={outcome.success ? t('tryResultOk', { slot: outcome.slot ?? '—' }) : t('tryResultRefused', { reason: ACCESS_REFUSAL_LABELS[outcome.reason ?? 'unknown'][language] })} />
      )}
    </Modal>
  );
}
