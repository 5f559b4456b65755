/**
 * The header's bell: the caller's unread notifications as a badge, refreshed by the live
 * stream's `notification.inbox` events (live/targets.ts; no polling while the stream is up), and the
 * drawer listing them (InboxDrawer: its code, with the contract tables and antd parts it alone uses, loads
 * when the bell is first clicked, not with every console page).
 */
import { BellOutlined } from '@ant-design/icons';
import { notificationInboxEndpoints } from '@iot/contract';
import { Badge, Button, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/useApiQuery';

const InboxDrawer = lazy(() => import('./InboxDrawer').then((module) => ({ default: module.InboxDrawer })));

/** Items the drawer shows (newest first); the bell's count covers every unread item. */
export const INBOX_PAGE_SIZE = 20;
/** Fallback refresh while the live stream is down, ms. */
const FALLBACK_MS = 60_000;

/** The bell button with its unread badge, opening the inbox drawer. */
export function InboxBell() {
  const { t } = useTranslation('inbox');
  const [open, setOpen] = useState(false);
  // Mounted from the first click on (kept for the drawer's closing animation).
  const [opened, setOpened] = useState(false);
  const { data } = useApiQuery(notificationInboxEndpoints.list, { current: 1, size: INBOX_PAGE_SIZE }, { refetchInterval: FALLBACK_MS });
  const unread = data?.unread ?? 0;
  return (
    <>
      {/* The badge beside the button, not inside it: the button's name says the count, and its own text
          ("99+") would not match that name (WCAG 2.5.3, e2e/accessibility.e2e.ts). */}
      <Tooltip title={t('bell', { count: unread })}>
        <Badge count={unread} size="small" overflowCount={99} offset={[-6, 6]}>
          <Button type="text" className="inbox-bell" aria-label={t('bell', { count: unread })} data-unread={unread} onClick={() => { setOpened(true); setOpen(true); }}
            icon={<BellOutlined />} />
        </Badge>
      </Tooltip>
      {opened && <Suspense fallback={null}><InboxDrawer open={open} onClose={() => setOpen(false)} page={data} /></Suspense>}
    </>
  );
}
