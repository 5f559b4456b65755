/**
 * 报警日志: every alarm, newest first, filterable, exportable, refreshed every 10 s; the device kind
 * (门锁 / 空开) picks whose: the locks' alerts (GET /iot/v1/lockAlert/list) or the air switches' alarms
 * (AirSwitchAlertLog, with acknowledgement).
 */
import { type AlertRecord, alertEndpoints } from '@iot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../hooks/useSession';
import { logFormValues, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { ALERT_FILTER_DEFAULTS, AlertFilters, alertColumns } from '../../components/alertColumns';
import { AirSwitchAlertLog } from './AirSwitchAlertLog';
import { DeviceKindFilter, useDeviceKind, withoutDeviceKind } from './DeviceKindFilter';

const REFETCH_MS = 10_000;

/** The alarm log page. */
export default function LockAlertLogPage() {
  const { t } = useTranslation('deviceLog');
  const language = useLanguage();
  const columns = useMemo(() => alertColumns(t, language), [t, language]);
  if (useDeviceKind() === 'airSwitch') return <AirSwitchAlertLog />;
  return (
    <ServerTable<AlertRecord>
      endpoint={alertEndpoints.list}
      exportEndpoint={alertEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={<><DeviceKindFilter /><AlertFilters t={t} /></>}
      initialFilters={ALERT_FILTER_DEFAULTS}
      fromQuery={(query) => ({ ...ALERT_FILTER_DEFAULTS, ...logFormValues(query) })}
      toQuery={logQuery}
      toRequest={withoutDeviceKind}
      refetchInterval={REFETCH_MS}
    />
  );
}
