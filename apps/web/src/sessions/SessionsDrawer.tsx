/**
 * 登录与会话 / Sign-ins and sessions: the person's live sessions (LiveSessions)
 * and sign-in history (SignInHistory) in two tabs of a drawer; with `account`, that account's, opened
 * by an account manager from 登录账号.
 */
import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { type AccountRef, LiveSessions } from './LiveSessions';
import { SignInHistory } from './SignInHistory';

/** The drawer (default export: loaded lazily by SessionsButton). */
export default function SessionsDrawer({ open, onClose, account }: { open: boolean; onClose: () => void; account?: AccountRef }) {
  const { t } = useTranslation('sessions');
  return (
    <Drawer title={account ? t('accountTitle', { username: account.username }) : t('title')} open={open} onClose={onClose} size="min(960px, 96vw)" className="sessions-drawer" styles={{ body: { paddingTop: 8 } }}>
      <Tabs
        items={[
          { key: 'live', label: t('liveTab'), children: <LiveSessions account={account} /> },
          { key: 'history', label: t('historyTab'), children: <SignInHistory account={account} /> },
        ]}
      />
    </Drawer>
  );
}
