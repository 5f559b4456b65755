/** Text and colour of one journal entry (门锁日志), from its source, type and data, in the current language. */
import type { JournalEntry } from '@iot/contract';
import type { TFunction } from 'i18next';

type Data = Record<string, unknown>;

/** Timeline dot colour per source (alerts by event). */
export function entryColor(entry: JournalEntry): string {
  if (entry.source === 'alert') return entry.type === 'raised' ? 'red' : entry.type === 'cleared' ? 'green' : 'gray';
  if (entry.source === 'openRecord') return entry.data.success ? 'blue' : 'orange';
  return entry.source === 'heartbeats' ? 'gray' : 'cyan';
}

/** One line describing `entry`; an unknown source or type falls back to its raw data. */
export function entryText(entry: JournalEntry, t: TFunction): string {
  const d = entry.data as Data;
  switch (entry.source) {
    case 'heartbeats':
      return t('heartbeatSummary', { count: d.count, min: d.batteryMin, max: d.batteryMax, rssi: d.rssiAvg, snr: d.snrAvg });
    case 'openRecord':
      return t('openEntry', { method: t(`methods.${entry.type}`), result: d.success ? t('success') : t('failed') });
    case 'alert': {
      const kind = t(`kinds.${d.kind}`);
      const by = entry.type === 'acknowledged' && d.by ? ` · ${t('by', { by: d.by })}` : '';
      return `${t(`alertEvents.${entry.type}`)}: ${kind} (${t(`severities.${d.severity}`)})${by}`;
    }
    case 'uplink':
      if (entry.type === 'doorState') return `${t(`door.${d.door}`)}, ${d.locked ? t('locked') : t('unlocked')}`;
      if (entry.type === 'commandResult') return t('commandResultEntry', { code: d.code });
      if (entry.type === 'configReport') return t('configEntry', { config: JSON.stringify(d.config) });
      return `${t(`uplinkTypes.${entry.type}`)}: ${JSON.stringify(d)}`;
    default:
      return `${entry.source} ${entry.type}: ${JSON.stringify(d)}`;
  }
}
