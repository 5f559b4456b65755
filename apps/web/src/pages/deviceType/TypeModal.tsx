/**
 * Add / edit modal of 设备类型: every field of a device type, its ratings included (RatingsFields, issue
 * #31); server refusals show under the fields they name (a default heartbeat outside the range, ratings
 * the type's devices' thresholds would break), others (duplicate model, type in use) as a toast.
 */
import {
  BACKUP_CODE_POOL_DEFAULT, BACKUP_CODE_POOL_MAX, CONNECTIVITIES, CREDENTIAL_RULE_LABELS, CREDENTIAL_RULES, DEFAULT_ACCESS_CAPACITY, DEFAULT_HEARTBEAT_RANGE_S, DEVICE_KINDS, type DeviceTypeInput, type DeviceTypeRecord,
  deviceTypeEndpoints, protocol,
} from '@iot/contract';
import { Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { showFieldErrors } from '../../api/fieldErrors';
import { useApiMutation } from '../../api/useApiMutation';
import { useLanguage } from '../../hooks/useSession';
import { electricalFor, RatingsFields } from './RatingsFields';
import { maxChars, numberRange } from '../../components/formRules';

const DEFAULTS: DeviceTypeInput = {
  kind: 'lock', model: '', connectivity: 'nbiotSleeping', heartbeatIntervalS: 300, heartbeatRangeS: { ...DEFAULT_HEARTBEAT_RANGE_S },
  capacity: { users: 100, passwords: 100, cards: 100, fingerprints: 50 }, passwordDigits: { min: 6, max: 9 },
  maxValidityDays: 365, unlockMethods: ['password', 'card', 'app'], firmwareFamily: '', electrical: null, ...DEFAULT_ACCESS_CAPACITY,
  backupCodePool: BACKUP_CODE_POOL_DEFAULT,
};

export interface TypeModalProps {
  /** The type edited; undefined: a new one. */
  editing?: DeviceTypeRecord;
  open: boolean;
  onClose(): void;
}

/** The modal form. */
export function TypeModal({ editing, open, onClose }: TypeModalProps) {
  const { t } = useTranslation('deviceType');
  const [form] = Form.useForm<DeviceTypeInput>();
  const language = useLanguage();
  const kind = Form.useWatch('kind', form);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing ? { ...editing, unlockMethods: editing.unlockMethods as DeviceTypeInput['unlockMethods'] } : DEFAULTS);
  }, [open, editing, form]);

  const save = useApiMutation({
    mutationFn: async (values: DeviceTypeInput) => {
      const body = { ...values, model: values.model.trim(), firmwareFamily: (values.firmwareFamily ?? '').trim(), electrical: electricalFor(values.kind, values.electrical) };
      if (editing) await call(deviceTypeEndpoints.update, { body: { ...body, id: editing.id }, quiet: true });
      else await call(deviceTypeEndpoints.add, { body, quiet: true });
    },
    success: t('saved'), invalidate: [deviceTypeEndpoints.list, deviceTypeEndpoints.options], onSuccess: onClose,
    errorText: (error) => showFieldErrors(form, error, 'body.', language),
  });
  const number = (name: (string | number)[] | string, label: string, min: number, max: number) => (
    <Form.Item name={name} label={t(label)} rules={[{ required: true }, ...numberRange(min, max)]}>
      <InputNumber style={{ width: '100%' }} />
    </Form.Item>
  );

  return (
    <Modal open={open} title={editing ? t('editTitle', { model: editing.model }) : t('add')} okText={t('ok')} cancelText={t('cancel')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} width={640} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Space.Compact block>
          <Form.Item htmlFor="type-model" name="model" label={t('model')} style={{ flex: 2 }}
            rules={[{ required: true, whitespace: true }, maxChars(32), { pattern: /^[A-Za-z0-9._-]{1,32}$/, message: t('modelInvalid') }]}>
            <Input id="type-model" />
          </Form.Item>
          <Form.Item htmlFor="type-kind" name="kind" label={t('kind')} style={{ flex: 1 }}>
            <Select id="type-kind" options={DEVICE_KINDS.map((value) => ({ value, label: t(`kinds.${value}`) }))}
              onChange={(value: DeviceTypeInput['kind']) => form.setFieldValue('electrical', electricalFor(value, form.getFieldValue('electrical')))} />
          </Form.Item>
          <Form.Item name="connectivity" label={t('connectivity')} style={{ flex: 1.4 }}>
            <Select options={CONNECTIVITIES.map((value) => ({ value, label: t(`connectivities.${value}`) }))} />
          </Form.Item>
        </Space.Compact>
        <Space.Compact block>
          {number('heartbeatIntervalS', 'heartbeatIntervalS', 10, 86_400)}
          {number('maxValidityDays', 'maxValidityDays', 1, 36_500)}
          {number(['passwordDigits', 'min'], 'digitsMin', 4, 16)}
          {number(['passwordDigits', 'max'], 'digitsMax', 4, 16)}
        </Space.Compact>
        <Space.Compact block>
          {(['users', 'passwords', 'cards', 'fingerprints'] as const).map((table) => <span key={table} style={{ flex: 1 }}>{number(['capacity', table], table, 0, 10_000)}</span>)}
        </Space.Compact>
        <Space.Compact block>
          {number('weekDaySchedulesPerUser', 'weekDaySchedulesPerUser', 0, 32)}
          {number('yearDaySchedulesPerUser', 'yearDaySchedulesPerUser', 0, 32)}
          {number('holidaySchedules', 'holidaySchedules', 0, 64)}
          <Form.Item name="credentialRulesSupport" label={t('credentialRulesSupport')} style={{ flex: 1.4 }}>
            <Select mode="multiple" options={CREDENTIAL_RULES.map((rule) => ({ value: rule, label: CREDENTIAL_RULE_LABELS[rule][language], disabled: rule === 'single' }))} />
          </Form.Item>
        </Space.Compact>
        {kind !== 'airSwitch' && (
          <Form.Item htmlFor="type-backup-code-pool" name="backupCodePool" label={t('backupCodePool')} tooltip={t('backupCodePoolHint')} rules={[{ required: true }, ...numberRange(0, BACKUP_CODE_POOL_MAX)]}>
            <InputNumber id="type-backup-code-pool" style={{ width: 160 }} />
          </Form.Item>
        )}
        <Form.Item name="unlockMethods" label={t('unlockMethods')}>
          <Select mode="multiple" options={protocol.OPEN_METHODS.map((method) => ({ value: method, label: t(`deviceLog:methods.${method}`) }))} />
        </Form.Item>
        <Form.Item name="firmwareFamily" label={t('firmwareFamily')} rules={[maxChars(32)]}>
          <Input />
        </Form.Item>
        <RatingsFields kind={kind} />
      </Form>
    </Modal>
  );
}
