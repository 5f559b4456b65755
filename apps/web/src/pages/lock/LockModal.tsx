/**
 * Register / edit modal of 门锁信息: IMEI (registration only; 15 digits with a Luhn check digit, checked
 * here by the contract's imeiLuhnValid and again by the server), name, device type, building / floor /
 * room, ICCID, note and the demo's "simulated" flag. A registration answers the device secret once.
 */
import { deviceTypeEndpoints, imeiLuhnValid, type LockRecord, type LockSecret, lockEndpoints } from '@iot/contract';
import { Form, Input, Modal, Select, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';

interface Values {
  imei?: string;
  name: string;
  model: string;
  building?: string;
  floor?: string;
  room?: string;
  iccid?: string;
  note?: string;
  simulated?: boolean;
}

export interface LockModalProps {
  /** The lock edited; undefined: a new registration. */
  editing?: LockRecord;
  open: boolean;
  onClose(): void;
  /** A registration's secret, to show once. */
  onIssued(issued: LockSecret): void;
}

/** The modal form. */
export function LockModal({ editing, open, onClose, onIssued }: LockModalProps) {
  const { t } = useTranslation('lock');
  const [form] = Form.useForm<Values>();
  const { data: types } = useApiQuery(deviceTypeEndpoints.options, undefined, { enabled: open });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) form.setFieldsValue({ ...editing, ...editing.location });
  }, [open, editing, form]);

  const save = useApiMutation({
    mutationFn: async (values: Values) => {
      const fields = {
        name: values.name.trim(), model: values.model, building: values.building?.trim() ?? '', floor: values.floor?.trim() ?? '',
        room: values.room?.trim() ?? '', iccid: values.iccid?.trim() ?? '', note: values.note?.trim() ?? '', simulated: values.simulated ?? false,
      };
      if (editing) return call(lockEndpoints.update, { body: { ...fields, id: editing.id } });
      return call(lockEndpoints.add, { body: { ...fields, imei: values.imei?.trim() ?? '' } });
    },
    success: () => (editing ? t('saved') : undefined),
    invalidate: [lockEndpoints.list],
    onSuccess: (result) => {
      if (result) onIssued(result);
      onClose();
    },
  });
  const required = (field: string) => ({ required: true, whitespace: true, message: t('required', { field: t(field) }) });

  return (
    <Modal open={open} title={editing ? t('editTitle', { imei: editing.imei }) : t('register')} okText={t('ok')} cancelText={t('cancel')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} width={600} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off" initialValues={{ simulated: false }}>
        {!editing && (
          <Form.Item name="imei" label={t('imei')} rules={[required('imei'), { validator: async (_, value?: string) => {
            if (value?.trim() && !imeiLuhnValid(value.trim())) throw new Error(t('imeiInvalid'));
          } }]}>
            <Input id="lock-imei" maxLength={15} inputMode="numeric" />
          </Form.Item>
        )}
        <Space.Compact block>
          <Form.Item name="name" label={t('name')} rules={[required('name')]} style={{ flex: 2 }}>
            <Input id="lock-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="model" label={t('deviceType')} rules={[required('deviceType')]} style={{ flex: 1 }}>
            <Select id="lock-model" options={(types ?? []).map((type) => ({ value: type.model, label: type.model }))} />
          </Form.Item>
        </Space.Compact>
        <Space.Compact block>
          {(['building', 'floor', 'room'] as const).map((part) => (
            <Form.Item key={part} name={part} label={t(part === 'room' ? 'roomNo' : part)} style={{ flex: 1 }}>
              <Input id={`lock-${part}`} maxLength={32} />
            </Form.Item>
          ))}
        </Space.Compact>
        <Form.Item name="iccid" label={t('iccid')} rules={[{ pattern: /^\d{19,20}$/, message: t('iccidInvalid') }]}>
          <Input maxLength={20} inputMode="numeric" />
        </Form.Item>
        <Form.Item name="note" label={t('note')}>
          <Input.TextArea maxLength={200} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
        <Form.Item name="simulated" label={t('simulated')} valuePropName="checked" extra={t('simulatedHelp')}>
          <Switch id="lock-simulated" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
