/** Text and colour of one journal entry (门锁日志), from its source, type and data, in the current language. */
import { alertDetailText, type JournalEntry, type Language, lockConfigFields, type protocol, resultCodeText } from '@iot/contract';
import type { TFunction } from 'i18next';
import { formatTime } from '../../lib/timeZone';

type Data = Record<string, unknown>;

/** Timeline dot colour per source (alerts by event). */
export function entryColor(entry: JournalEntry): string {
  if (entry.source === 'alert') return entry.type === 'raised' ? 'red' : entry.type === 'cleared' ? 'green' : 'gray';
  if (entry.source === 'openRecord') return entry.data.success ? 'blue' : 'orange';
  return entry.source === 'heartbeats' ? 'gray' : 'cyan';
}

/** `label value · label value` of plain data (no JSON braces). */
function fieldsText(data: Data): string {
  return Object.entries(data).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' · ');
}

/** One line describing `entry` in `language`; an unknown source or type falls back to its fields. */
export function entryText(entry: JournalEntry, t: TFunction, language: Language): string {
  const d = entry.data as Data;
  switch (entry.source) {
    case 'heartbeats':
      return t('heartbeatSummary', {
        count: d.count, min: d.batteryMin, max: d.batteryMax, rssi: d.rssiAvg, snr: d.snrAvg,
        from: d.from ? formatTime(String(d.from), 'HH:mm') : '', to: formatTime(entry.time, 'HH:mm'),
      });
    case 'openRecord':
      return t('openEntry', { method: t(`methods.${entry.type}`), result: d.success ? t('success') : t('failed') });
    case 'alert': {
      const kind = t(`kinds.${d.kind}`);
      const by = entry.type === 'acknowledged' && d.by ? ` · ${t('by', { by: d.by })}` : '';
      const detail = alertDetailText(String(d.kind), typeof d.detail === 'string' ? d.detail : null, language);
      return `${t(`alertEvents.${entry.type}`)}: ${kind} (${t(`severities.${d.severity}`)})${detail ? ` · ${detail}` : ''}${by}`;
    }
    case 'uplink':
      if (entry.type === 'doorState') return `${t(`door.${d.door}`)}, ${d.locked ? t('locked') : t('unlocked')}`;
      if (entry.type === 'commandResult') {
        return t('commandResultEntry', { result: resultCodeText(Number(d.code), typeof d.slot === 'number' ? d.slot : null, language) });
      }
      if (entry.type === 'configReport') {
        const fields = lockConfigFields((d.config ?? {}) as protocol.LockConfig, language);
        return t('configEntry', { config: fields.map((f) => `${f.label} ${f.value}`).join(' · ') });
      }
      return `${t(`uplinkTypes.${entry.type}`, { defaultValue: entry.type })}: ${fieldsText(d)}`;
    default:
      return `${entry.source} ${entry.type}: ${fieldsText(d)}`;
  }
}
