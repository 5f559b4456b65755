/**
 * A circuit's protection thresholds: the desired values (editable) beside those the switch reported,
 * pushed as a command (POST /iot/v1/airSwitch/thresholds); "pending" until the switch confirms them.
 * The model's ratings are shown, and the thresholds as they would be stored (reported, desired,
 * the form) are checked in the browser with the contract's own rule before sending; the server's
 * refusals show under their fields.
 */
import { type AirSwitchRecord, airSwitchEndpoints, type protocol, thresholdIssues } from '@iot/contract';
import { Button, Form, InputNumber, Segmented, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { showFieldErrors } from '../../api/fieldErrors';
import { useApiMutation } from '../../api/useApiMutation';
import { useLanguage } from '../../hooks/useSession';

const FIELDS = ['overVoltageV', 'underVoltageV', 'currentLimitA', 'powerLimitW', 'leakageWarnMa', 'leakageTripMa', 'temperatureC'] as const;
type Thresholds = protocol.CircuitThresholds;

export function ThresholdsForm({ airSwitch }: { airSwitch: AirSwitchRecord }) {
  const { t } = useTranslation('airSwitch');
  const language = useLanguage();
  const [number, setNumber] = useState(airSwitch.circuits[0]?.circuit ?? 1);
  const [form] = Form.useForm<Thresholds>();
  const circuit = airSwitch.circuits.find((c) => c.circuit === number);
  const desired = JSON.stringify(circuit?.desiredThresholds ?? {});
  const ratings = airSwitch.ratings;
  useEffect(() => form.setFieldsValue({ ...Object.fromEntries(FIELDS.map((f) => [f, undefined])), ...JSON.parse(desired) }), [form, desired]);
  const push = useApiMutation({
    mutationFn: (thresholds: Thresholds) => call(airSwitchEndpoints.thresholds, { body: { id: airSwitch.id, circuit: number, thresholds }, quiet: true }),
    success: t('commandSent'), invalidate: [airSwitchEndpoints.detail, airSwitchEndpoints.list],
    errorText: (error) => showFieldErrors(form, error, 'body.thresholds.', language),
  });
  const submit = (values: Thresholds) => {
    const thresholds = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null)) as Thresholds;
    const merged = { ...(circuit?.reportedThresholds ?? {}), ...(circuit?.desiredThresholds ?? {}), ...thresholds };
    const issues = thresholdIssues(merged, ratings, airSwitch.model);
    if (issues.length > 0) return form.setFields(issues.map((issue) => ({ name: issue.field as keyof Thresholds, errors: [issue.message[language]] })));
    void push.run(thresholds);
  };
  return (
    <div style={{ margin: '16px 0' }}>
      <Space style={{ marginBottom: 12 }} wrap>
        <h4 style={{ margin: 0 }}>{t('thresholds')}</h4>
        <Segmented options={airSwitch.circuits.map((c) => ({ label: c.name, value: c.circuit }))} value={number} onChange={(v) => setNumber(Number(v))} />
        {circuit && <Tag color={circuit.thresholdsInSync ? 'green' : 'orange'}>{t(circuit.thresholdsInSync ? 'inSync' : 'pending')}</Tag>}
        {ratings && (
          <Typography.Text type="secondary" id="switch-ratings">
            {t('ratings', { model: airSwitch.model, current: ratings.ratedCurrentA, voltage: ratings.ratedVoltageV, leakMin: ratings.leakageMa.min, leakMax: ratings.leakageMa.max })}
          </Typography.Text>
        )}
      </Space>
      <Form form={form} layout="inline" onFinish={submit} className="thresholds-form">
        {FIELDS.map((field) => (
          <Form.Item key={field} name={field} label={t(`thresholdFields.${field}`)} style={{ marginBottom: 8 }}
            extra={`${t('reported')}: ${circuit?.reportedThresholds?.[field] ?? '—'}`}>
            <InputNumber id={`threshold-${field}`} style={{ width: 110 }} />
          </Form.Item>
        ))}
        <Form.Item><Button type="primary" htmlType="submit" loading={push.isPending}>{t('push')}</Button></Form.Item>
      </Form>
    </div>
  );
}
