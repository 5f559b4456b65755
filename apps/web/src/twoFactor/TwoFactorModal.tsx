/**
 * The signed-in person's two-factor sign-in (docs/identity.md "Two-factor sign-in"): its
 * state (on, recovery codes left), and enrolment: begin (QR code and typed key), confirm with the
 * app's 6-digit code, then the 10 recovery codes shown once with copy; once on, renewing the codes
 * and turning it off (TwoFactorEnabled). While a role requires
 * two-factor and the account has not enrolled, the dialog cannot be closed: nothing else works.
 */
import { type ResponseOf, twoFactorEndpoints as api } from '@iot/contract';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { useApiQuery } from '../api/useApiQuery';
import { queryClient } from '../api/queryClient';
import { TwoFactorEnabled } from './TwoFactorEnabled';

interface Props {
  open: boolean;
  onClose(): void;
}

/** The two-factor dialog of the header's user menu. */
export default function TwoFactorModal({ open, onClose }: Props) {
  const { t } = useTranslation('twoFactor');
  const status = useApiQuery(api.status);
  const [enrolment, setEnrolment] = useState<ResponseOf<typeof api.begin>>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const begin = useApiMutation({ mutationFn: () => call(api.begin), onSuccess: setEnrolment });
  const confirm = useApiMutation({
    mutationFn: (value: string) => call(api.confirm, { body: { code: value } }),
    success: t('confirmed'),
    onSuccess: (result) => {
      setRecoveryCodes(result.recoveryCodes);
      setEnrolment(undefined);
      // Every page may have been refused while enrolment was due: read everything again.
      void queryClient.invalidateQueries();
    },
  });
  const mustEnrol = status.data?.required === true && !status.data.enabled;
  const close = () => {
    setRecoveryCodes(undefined);
    setCode('');
    onClose();
  };
  const submitCode = () => {
    if (!/^\d{6}$/.test(code.trim())) return setCodeError(true);
    void confirm.run(code.trim());
  };

  let body: React.ReactNode;
  if (recoveryCodes) {
    body = (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Title level={5}>{t('recoveryTitle')}</Typography.Title>
        <Alert type="warning" showIcon message={t('recoveryOnce')} />
        <Typography.Paragraph copyable={{ text: recoveryCodes.join('\n'), tooltips: [t('copy'), t('copied')] }} data-testid="recovery-codes">
          <pre className="two-factor-recovery">{recoveryCodes.join('\n')}</pre>
        </Typography.Paragraph>
      </Space>
    );
  } else if (enrolment) {
    body = (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text strong>{t('scan')}</Typography.Text>
        <img className="two-factor-qr" src={enrolment.qrCode} alt={enrolment.uri} width={200} height={200} />
        <Typography.Text>{t('secret')}: <Typography.Text code copyable data-testid="two-factor-secret">{enrolment.secret}</Typography.Text></Typography.Text>
        <Typography.Text strong>{t('enterCode')}</Typography.Text>
        <Space.Compact>
          <Input id="two-factor-code" value={code} maxLength={6} inputMode="numeric" autoComplete="one-time-code" placeholder={t('code')} aria-label={t('code')}
            status={codeError ? 'error' : undefined} style={{ width: 160 }} onPressEnter={submitCode}
            onChange={(event) => { setCode(event.target.value); setCodeError(false); }} />
          <Button type="primary" loading={confirm.isPending} onClick={submitCode}>{t('confirm')}</Button>
        </Space.Compact>
        {codeError && <Typography.Text type="danger">{t('codeInvalid')}</Typography.Text>}
      </Space>
    );
  } else if (status.data?.enabled) {
    body = <TwoFactorEnabled status={status.data} onRecoveryCodes={setRecoveryCodes} />;
  } else {
    body = (
      <Space direction="vertical">
        <Typography.Paragraph>{t('disabled')}</Typography.Paragraph>
        <Button type="primary" loading={begin.isPending} onClick={() => void begin.run()}>{t('begin')}</Button>
      </Space>
    );
  }

  return (
    <Modal open={open} title={t('title')} onCancel={close} closable={!mustEnrol} maskClosable={false} keyboard={!mustEnrol} destroyOnHidden
      footer={mustEnrol && !recoveryCodes ? null : <Button type="primary" onClick={close}>{recoveryCodes ? t('done') : t('close')}</Button>}>
      {mustEnrol && !recoveryCodes && <Alert type="info" showIcon message={t('required')} style={{ marginBottom: 16 }} />}
      {body}
    </Modal>
  );
}
