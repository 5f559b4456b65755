/**
 * The ratings part of the 设备类型 form (contract ratings.ts): the heartbeat range every
 * type has, and for an air switch its circuits, rated current and voltage and leakage range (locks have
 * none: `electrical` is null). Thresholds and configuration pushes are checked against these.
 */
import type { DeviceTypeInput, ElectricalRatings } from '@iot/contract';
import { Divider, Form, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** What a new air switch type starts from (the seeded ZG-AS4's ratings). */
export const ELECTRICAL_DEFAULTS: ElectricalRatings = { circuits: 4, ratedCurrentA: 63, ratedVoltageV: 220, leakageMa: { min: 10, max: 300 } };

/** Electrical ratings fit for `kind`: null for a lock, the current ones or the defaults for an air switch. */
export function electricalFor(kind: DeviceTypeInput['kind'], current: ElectricalRatings | null | undefined): ElectricalRatings | null {
  return kind === 'airSwitch' ? (current ?? ELECTRICAL_DEFAULTS) : null;
}

/** The fields; `kind` decides whether the electrical ones show. */
export function RatingsFields({ kind }: { kind: DeviceTypeInput['kind'] | undefined }) {
  const { t } = useTranslation('deviceType');
  const number = (name: (string | number)[], label: string, min: number, max: number, unit: string) => (
    <Form.Item name={name} label={`${t(label)} (${unit})`} rules={[{ required: true, message: t('required', { field: t(label) }) }]} style={{ flex: 1 }}>
      <InputNumber id={`type-${name.join('-')}`} min={min} max={max} precision={0} style={{ width: '100%' }} />
    </Form.Item>
  );
  return (
    <>
      <Divider plain titlePlacement="start" style={{ margin: '4px 0 12px' }}>{t('ratings')}</Divider>
      <Space.Compact block>
        {number(['heartbeatRangeS', 'min'], 'heartbeatMin', 10, 86_400, t('unitS'))}
        {number(['heartbeatRangeS', 'max'], 'heartbeatMax', 10, 86_400, t('unitS'))}
      </Space.Compact>
      {kind === 'airSwitch' && (
        <Space.Compact block>
          {number(['electrical', 'circuits'], 'circuits', 1, 16, t('unitCount'))}
          {number(['electrical', 'ratedCurrentA'], 'ratedCurrent', 1, 630, 'A')}
          {number(['electrical', 'ratedVoltageV'], 'ratedVoltage', 100, 400, 'V')}
          {number(['electrical', 'leakageMa', 'min'], 'leakageMin', 10, 500, 'mA')}
          {number(['electrical', 'leakageMa', 'max'], 'leakageMax', 10, 500, 'mA')}
        </Space.Compact>
      )}
    </>
  );
}
