/** 报警日志: every alert (GET /iot/v1/lockAlert/list), newest first, filterable, exportable, refreshed every 10 s. */
import { type AlertRecord, alertEndpoints } from '@iot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../app/useSession';
import { logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { ALERT_FILTER_DEFAULTS, AlertFilters, alertColumns } from '../lockAlert/columns';

const REFETCH_MS = 10_000;

/** The alarm log page. */
export default function LockAlertLogPage() {
  const { t } = useTranslation('deviceLog');
  const language = useLanguage();
  const columns = useMemo(() => alertColumns(t, language), [t, language]);
  return (
    <ServerTable<AlertRecord>
      endpoint={alertEndpoints.list}
      exportEndpoint={alertEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={<AlertFilters t={t} />}
      initialFilters={ALERT_FILTER_DEFAULTS}
      toQuery={logQuery}
      refetchInterval={REFETCH_MS}
    />
  );
}
