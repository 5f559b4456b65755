/**
 * The alarm log's device kind (门锁 / 空开), kept in the URL as `device` (absent: locks); choosing one
 * starts the other kind's list afresh. Each kind's list drops `device` before calling its own endpoints.
 */
import { ALARM_LOG_DEVICE_KINDS, type AlarmLogDeviceKind } from '@iot/contract';
import { Form, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

/** The device kind the URL names. */
export function useDeviceKind(): AlarmLogDeviceKind {
  const [params] = useSearchParams();
  return params.get('device') === 'airSwitch' ? 'airSwitch' : 'lock';
}

/** URL query -> API query without the device kind. */
export const withoutDeviceKind = ({ device: _device, ...query }: Record<string, string>) => query;

/** The device kind picker, a field of either list's search form. */
export function DeviceKindFilter() {
  const { t } = useTranslation('deviceLog');
  const [, setParams] = useSearchParams();
  const kind = useDeviceKind();
  return (
    <Form.Item label={t('deviceKind')}>
      <Segmented<AlarmLogDeviceKind>
        value={kind}
        options={ALARM_LOG_DEVICE_KINDS.map((value) => ({ value, label: t(`deviceKinds.${value}`) }))}
        onChange={(value) => setParams(value === 'lock' ? {} : { device: value })}
      />
    </Form.Item>
  );
}
