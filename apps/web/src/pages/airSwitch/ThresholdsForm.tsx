/**
 * A circuit's protection thresholds: the desired values (editable) beside those the switch reported,
 * pushed as a command (POST /iot/v1/airSwitch/thresholds); "pending" until the switch confirms them.
 */
import { type AirSwitchRecord, airSwitchEndpoints, type protocol } from '@iot/contract';
import { Button, Form, InputNumber, Segmented, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

const FIELDS = ['overVoltageV', 'underVoltageV', 'currentLimitA', 'powerLimitW', 'leakageWarnMa', 'leakageTripMa', 'temperatureC'] as const;

export function ThresholdsForm({ airSwitch }: { airSwitch: AirSwitchRecord }) {
  const { t } = useTranslation('airSwitch');
  const [number, setNumber] = useState(airSwitch.circuits[0]?.circuit ?? 1);
  const [form] = Form.useForm<protocol.CircuitThresholds>();
  const circuit = airSwitch.circuits.find((c) => c.circuit === number);
  const desired = JSON.stringify(circuit?.desiredThresholds ?? {});
  useEffect(() => form.setFieldsValue({ ...Object.fromEntries(FIELDS.map((f) => [f, undefined])), ...JSON.parse(desired) }), [form, desired]);
  const push = useApiMutation({
    form,
    mutationFn: (thresholds: protocol.CircuitThresholds) => call(airSwitchEndpoints.thresholds, { body: { id: airSwitch.id, circuit: number, thresholds } }),
    success: t('commandSent'), invalidate: [airSwitchEndpoints.detail, airSwitchEndpoints.list],
  });
  const submit = (values: protocol.CircuitThresholds) =>
    push.run(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null)) as protocol.CircuitThresholds);
  return (
    <div style={{ margin: '16px 0' }}>
      <Space style={{ marginBottom: 12 }}>
        <h4 style={{ margin: 0 }}>{t('thresholds')}</h4>
        <Segmented options={airSwitch.circuits.map((c) => ({ label: c.name, value: c.circuit }))} value={number} onChange={(v) => setNumber(Number(v))} />
        {circuit && <Tag color={circuit.thresholdsInSync ? 'green' : 'orange'}>{t(circuit.thresholdsInSync ? 'inSync' : 'pending')}</Tag>}
      </Space>
      <Form form={form} layout="inline" onFinish={submit} className="thresholds-form">
        {FIELDS.map((field) => (
          <Form.Item key={field} name={field} label={t(`thresholdFields.${field}`)} style={{ marginBottom: 8 }}
            extra={`${t('reported')}: ${circuit?.reportedThresholds?.[field] ?? '—'}`}>
            <InputNumber style={{ width: 110 }} />
          </Form.Item>
        ))}
        <Form.Item><Button type="primary" htmlType="submit" loading={push.isPending}>{t('push')}</Button></Form.Item>
      </Form>
    </div>
  );
}
