/**
 * The header's username, opening the person's two-factor dialog (TwoFactorModal, loaded on first
 * open). It opens by itself while a role requires two-factor and the account has not enrolled
 * (led through enrolment at sign-in, before anything else works).
 */
import { twoFactorEndpoints } from '@iot/contract';
import { SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/useApiQuery';

const TwoFactorModal = lazy(() => import('./TwoFactorModal'));

/** The username button with its two-factor dialog. */
export function UserSecurity({ username }: { username: string | null | undefined }) {
  const { t } = useTranslation('twoFactor');
  const status = useApiQuery(twoFactorEndpoints.status);
  const [open, setOpen] = useState(false);
  const mustEnrol = status.data?.required === true && !status.data.enabled;
  useEffect(() => {
    if (mustEnrol) setOpen(true);
  }, [mustEnrol]);
  return (
    <>
      <Tooltip title={t('menu')}>
        <Button type="text" className="console-username" icon={status.data?.enabled ? <SafetyCertificateOutlined /> : <UserOutlined />}
          aria-label={`${username ?? ''} · ${t('menu')}`} onClick={() => setOpen(true)}>{username}</Button>
      </Tooltip>
      {open && <Suspense fallback={null}><TwoFactorModal open={open} onClose={() => setOpen(false)} /></Suspense>}
    </>
  );
}
