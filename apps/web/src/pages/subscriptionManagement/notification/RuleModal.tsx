/**
 * Add or edit a notification rule (contract notificationRuleBody): name, alert kinds (the labels of
 * 门锁警告 and the air-switch alarms; none: every kind), minimum severity, scope (buildings, lock groups,
 * device types; all empty: every device), channels and recipients (accounts, roles), storm window,
 * hourly cap, escalation (minutes unacknowledged, then its channels and recipients), quiet hours (the data centre's local time), the work order a
 * matched lock alert opens (none by default) and enabled.
 */
import { ALERT_SEVERITIES, HOURLY_CAP_MAX, WORK_ORDER_KINDS, WORK_ORDER_LABELS, isNotificationEventKind, NOTIFICATION_ALERT_KINDS, type NotificationRuleBody, type NotificationRuleRecord, lockGroupEndpoints, notificationEndpoints as api } from '@iot/contract';
import { Col, Form, Input, InputNumber, Modal, Row, Select, Switch, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useApiMutation } from '../../../api/useApiMutation';
import { useApiQuery } from '../../../api/useApiQuery';
import { useLanguage } from '../../../hooks/useSession';
import { useMayCall } from '../../../hooks/mayCall';
import { maxChars, numberRange } from '../../../components/formRules';
import { RemoteSelect } from '../../../components/RemoteSelect';
import { alertKindLabel, LOCK_KINDS } from './alertKinds';
import { RecipientPickers } from './RecipientPickers';

type Values = Omit<NotificationRuleBody, 'id' | 'quietHours'> & { quietHours?: [Dayjs, Dayjs] | null };
const clock = (time: string) => dayjs(`2000-01-01T${time}`);
const tags = { mode: 'tags' as const, open: false, tokenSeparators: [',', '，'] };

/** The modal; `record` absent: a new rule. */
export function RuleModal({ record, open, onClose }: { record?: NotificationRuleRecord; open: boolean; onClose(): void }) {
  const { t } = useTranslation(['notification', 'deviceLog']);
  const [form] = Form.useForm<Values>();
  const language = useLanguage();
  const channels = useApiQuery(api.channel.list);
  const mayPickGroups = useMayCall(lockGroupEndpoints.list);
  const save = useApiMutation({
    form,
    mutationFn: ({ quietHours, ...values }: Values) => call(api.rule.save, { body: {
      ...values, id: record?.id, name: values.name.trim(), quietHours: quietHours ? { start: quietHours[0].format('HH:mm'), end: quietHours[1].format('HH:mm') } : null,
    } }),
    success: t('saved'), invalidate: [api.rule.list], onSuccess: onClose,
  });
  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(record ? { ...record, quietHours: record.quietHours ? [clock(record.quietHours.start), clock(record.quietHours.end)] : null }
      : { enabled: true, kinds: [], minSeverity: 'warning', buildings: [], groupIds: [], deviceTypes: [], channelIds: [], stormWindowS: 300, hourlyCap: 0, escalateAfterMin: 0, escalationChannelIds: [], quietHours: null, openWorkOrder: null,
        recipientAccountIds: [], recipientRoleIds: [], escalationAccountIds: [], escalationRoleIds: [] });
  }, [open, record, form]);
  const channelOptions = (channels.data ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${t(`kinds.${c.kind}`)}` }));
  const kindOptions = [
    { label: t('lockKinds'), options: NOTIFICATION_ALERT_KINDS.filter((k) => LOCK_KINDS.has(k)).map((k) => ({ value: k, label: alertKindLabel(t, k) })) },
    { label: t('airSwitchKinds'), options: NOTIFICATION_ALERT_KINDS.filter((k) => !LOCK_KINDS.has(k) && !isNotificationEventKind(k)).map((k) => ({ value: k, label: alertKindLabel(t, k) })) },
    { label: t('eventKinds'), options: NOTIFICATION_ALERT_KINDS.filter(isNotificationEventKind).map((k) => ({ value: k, label: alertKindLabel(t, k) })) },
  ];

  return (
    <Modal open={open} width={680} title={record ? t('editRule') : t('addRule')} okText={t('ok')} cancelText={t('cancel')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} afterClose={() => form.resetFields()} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Row gutter={16}>
          <Col span={16}><Form.Item htmlFor="rule-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true }, maxChars(64)]}><Input id="rule-name" /></Form.Item></Col>
          <Col span={8}><Form.Item name="enabled" label={t('enabled')} valuePropName="checked"><Switch /></Form.Item></Col>
        </Row>
        <Row gutter={16}>
          <Col span={16}>
            <Form.Item htmlFor="rule-kinds" name="kinds" label={t('alertKinds')}>
              <Select id="rule-kinds" mode="multiple" allowClear placeholder={t('allKinds')} options={kindOptions} optionFilterProp="label" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item htmlFor="rule-minSeverity" name="minSeverity" label={t('minSeverity')} tooltip={t('minSeverityHint')}>
              <Select id="rule-minSeverity" options={ALERT_SEVERITIES.map((s) => ({ value: s, label: t(`deviceLog:severities.${s}`) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={8}><Form.Item htmlFor="rule-buildings" name="buildings" label={t('buildings')} tooltip={t('scopeHint')}><Select id="rule-buildings" {...tags} placeholder={t('buildingsHint')} /></Form.Item></Col>
          {mayPickGroups && (
            <Col span={8}>
              <Form.Item htmlFor="rule-groups" name="groupIds" label={t('groups')}>
                <RemoteSelect id="rule-groups" mode="multiple" endpoint={lockGroupEndpoints.list} query={(keyword) => ({ keyword, current: 1, size: 50 })}
                  records={(page) => page.records} option={(group) => ({ value: group.id, label: group.name })} />
              </Form.Item>
            </Col>
          )}
          <Col span={8}><Form.Item htmlFor="rule-deviceTypes" name="deviceTypes" label={t('deviceTypes')}><Select id="rule-deviceTypes" {...tags} placeholder={t('deviceTypesHint')} /></Form.Item></Col>
        </Row>
        <Form.Item htmlFor="rule-channels" name="channelIds" label={t('channels')} dependencies={['recipientAccountIds', 'recipientRoleIds']} rules={[({ getFieldValue }) => ({
          validator: (_, ids?: number[]) => (ids?.length || getFieldValue('recipientAccountIds')?.length || getFieldValue('recipientRoleIds')?.length
            ? Promise.resolve() : Promise.reject(new Error(t('channelsRequired')))),
        })]}>
          <Select id="rule-channels" mode="multiple" allowClear loading={channels.isLoading} optionFilterProp="label" options={channelOptions} />
        </Form.Item>
        <RecipientPickers prefix="recipient" />
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item htmlFor="rule-stormWindowS" name="stormWindowS" label={t('stormWindow')} extra={t('stormWindowHint')} rules={numberRange(0, 86_400)}>
              <InputNumber id="rule-stormWindowS" style={{ width: 160 }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item htmlFor="rule-hourlyCap" name="hourlyCap" label={t('hourlyCap')} tooltip={t('hourlyCapHint')} rules={numberRange(0, HOURLY_CAP_MAX)}>
              <InputNumber id="rule-hourlyCap" style={{ width: 160 }} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item htmlFor="rule-escalateAfterMin" name="escalateAfterMin" label={t('escalateAfter')} tooltip={t('escalateAfterHint')} rules={numberRange(0, 10_080)}>
              <InputNumber id="rule-escalateAfterMin" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item htmlFor="rule-escalationChannels" name="escalationChannelIds" label={t('escalationChannels')}>
              <Select id="rule-escalationChannels" mode="multiple" allowClear loading={channels.isLoading} optionFilterProp="label" options={channelOptions} />
            </Form.Item>
          </Col>
        </Row>
        <RecipientPickers prefix="escalation" />
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item htmlFor="rule-quietHours" name="quietHours" label={t('quietHours')} tooltip={t('quietHoursHint')}>
              <TimePicker.RangePicker id="rule-quietHours" format="HH:mm" order={false} minuteStep={5} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item htmlFor="rule-openWorkOrder" name="openWorkOrder" label={t('openWorkOrder')} tooltip={t('openWorkOrderHint')}>
              <Select id="rule-openWorkOrder" options={[{ value: null, label: t('openWorkOrderNone') }, ...WORK_ORDER_KINDS.map((k) => ({ value: k, label: WORK_ORDER_LABELS.kinds[k][language] }))]} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
