/**
 * 门锁日志: one lock's merged timeline (GET /iot/v1/lockDevice/journal) as an antd Timeline, newest
 * first: heartbeat summaries, uplinks, unlocks and alerts; refreshed in the background every 10 s.
 */
import { JOURNAL_MAX_ENTRIES, journalEndpoints } from '@iot/contract';
import { Alert, DatePicker, Empty, Space, Tag, Timeline } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { useLanguage } from '../../hooks/useSession';
import { LockSelect } from '../../components/LockSelect';
import { formatTime } from '../../components/logColumns';
import { entryColor, entryText } from './entryText';

const REFETCH_MS = 10_000;

/** The lock journal page. */
export default function LockJournalPage() {
  const { t } = useTranslation('deviceLog');
  const language = useLanguage();
  const [params] = useSearchParams();
  // A link may name the lock (产品's room panel, 设备信息: ?imei=).
  const [imei, setImei] = useState<string | undefined>(() => params.get('imei') ?? undefined);
  const [range, setRange] = useState<(Dayjs | null)[] | null>(null);
  const query = { imei, startTime: range?.[0]?.toISOString(), endTime: range?.[1]?.toISOString() };
  // No call before a lock is chosen (the journal needs one: it would answer 400 请求参数有误).
  const { data } = useApiQuery(journalEndpoints.journal, query, { refetchInterval: imei ? REFETCH_MS : undefined, keepPrevious: true, enabled: imei !== undefined });
  const journal = imei ? data : undefined;
  return (
    <div className="page-card">
      <Space wrap style={{ marginBottom: 16 }}>
        <LockSelect value={imei} onChange={setImei} autoSelectFirst />
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} value={range as [Dayjs, Dayjs] | null} onChange={(value) => setRange(value)} />
      </Space>
      {journal?.truncated && <Alert type="info" showIcon title={t('truncated', { max: JOURNAL_MAX_ENTRIES })} style={{ marginBottom: 16 }} />}
      {!imei && <Empty description={t('pickLockHint')} />}
      {journal && journal.entries.length === 0 && <Empty description={t('noEntries')} />}
      {journal && journal.entries.length > 0 && (
        <Timeline
          className="lock-journal"
          mode="start"
          items={journal.entries.map((entry, index) => ({
            key: `${entry.time}-${index}`,
            color: entryColor(entry),
            title: formatTime(entry.time),
            content: (
              <span>
                <Tag>{t(`sources.${entry.source}`, { defaultValue: entry.source })}</Tag>
                {entryText(entry, t, language)}
              </span>
            ),
          }))}
        />
      )}
    </div>
  );
}
