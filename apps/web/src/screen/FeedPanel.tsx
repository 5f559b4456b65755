/**
 * The live feed: the last hour's alarms and unlock attempts, newest first (GET .../analysis/feed, polled
 * every 2 s). An event not on screen before slides in highlighted; a repeated alarm comes back to the top.
 */
import type { AnalysisFeedItem } from '@iot/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTime } from './screenTime';
import { Panel } from './Panel';

const keyOf = (item: AnalysisFeedItem) => `${item.id}@${item.at}`;

export function FeedPanel({ items, showTenant }: { items: AnalysisFeedItem[] | undefined; showTenant: boolean }) {
  const { t } = useTranslation('screen');
  const { t: tl } = useTranslation('deviceLog');
  // Events of the previous poll on screen (null before the first): what is not among them is new.
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (items) seen.current = new Set(items.map(keyOf));
  }, [items]);
  const previous = seen.current;
  return (
    <Panel name="feed" title={t('feed')} className="screen-feed-panel">
      {items && items.length === 0 && <div className="screen-empty">{t('feedEmpty')}</div>}
      <ul className="screen-feed">
        {(items ?? []).map((item) => {
          const alarm = item.type === 'alarm';
          const tone = alarm ? `screen-level-${item.level}` : item.level === 'failed' ? 'screen-level-failed' : 'screen-level-success';
          const fresh = previous !== null && !previous.has(keyOf(item));
          return (
            <li key={keyOf(item)} className={`screen-feed-item ${fresh ? 'screen-feed-new' : ''}`}
              data-feed-type={item.type} data-what={item.what} data-imei={item.imei} data-at={item.at}>
              <span className="screen-feed-time">{screenTime(item.at)}</span>
              <span className={`screen-feed-tag ${tone}`}>
                {alarm ? tl(`kinds.${item.what}`) : `${tl(`methods.${item.what}`)}${item.level === 'failed' ? ` · ${t('unlockFailed')}` : ''}`}
              </span>
              <span className="screen-feed-lock">
                {showTenant && <b>{item.tenantId} · </b>}{item.name || item.imei}{item.room ? ` · ${item.room}` : ''}
              </span>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
