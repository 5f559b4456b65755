/**
 * The header's entry to the person's sign-ins and sessions, next to the username
 * (two-factor): an icon button opening SessionsDrawer, loaded on first open.
 */
import { DesktopOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SessionsDrawer = lazy(() => import('./SessionsDrawer'));

/** The button with its drawer. */
export function SessionsButton() {
  const { t } = useTranslation('sessions');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('menu')}>
        <Button type="text" className="sessions-button" aria-label={t('menu')} icon={<DesktopOutlined />} onClick={() => setOpen(true)} />
      </Tooltip>
      {open && <Suspense fallback={null}><SessionsDrawer open={open} onClose={() => setOpen(false)} /></Suspense>}
    </>
  );
}
