/**
 * 登录与会话 / Sign-ins and sessions (issue #28 "Sessions"): the person's live sessions (LiveSessions)
 * and sign-in history (SignInHistory) in two tabs of a drawer.
 */
import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { LiveSessions } from './LiveSessions';
import { SignInHistory } from './SignInHistory';

/** The drawer (default export: loaded lazily by SessionsButton). */
export default function SessionsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('sessions');
  return (
    <Drawer title={t('title')} open={open} onClose={onClose} size="min(960px, 96vw)" className="sessions-drawer" styles={{ body: { paddingTop: 8 } }}>
      <Tabs
        items={[
          { key: 'live', label: t('liveTab'), children: <LiveSessions /> },
          { key: 'history', label: t('historyTab'), children: <SignInHistory /> },
        ]}
      />
    </Drawer>
  );
}
