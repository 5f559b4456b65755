/**
 * The stream's state in the header: a small dot (green live, amber connecting, grey down) with a
 * tooltip saying what it means and when the last event arrived.
 */
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { lastLiveEventAt } from './connection';
import { useLiveState } from './LiveConnection';

/** The header's live dot; nothing while signed out. */
export function LiveIndicator() {
  const { t, i18n } = useTranslation();
  const state = useLiveState();
  if (state === 'off') return null;
  // Read when the tooltip opens: the time of the last event changes without a re-render.
  const title = () => {
    const last = lastLiveEventAt();
    return <>{t(`live.${state}`)}{last !== undefined && <><br />{t('live.lastEvent', { time: new Date(last).toLocaleTimeString(i18n.language) })}</>}</>;
  };
  return (
    <Tooltip title={title}>
      <span className="live-indicator" data-live={state} role="status" aria-label={t(`live.${state}`)}>
        <span className="live-dot" />
      </span>
    </Tooltip>
  );
}
