/**
 * Register / edit modal of 门锁信息: IMEI (registration only; 15 digits with a Luhn check digit, checked
 * here by the contract's imeiLuhnValid and again by the server), name, device type, building / floor /
 * room, ICCID, note and the demo's "simulated" flag. A registration answers the device secret once.
 * Only lock device types are offered; an IMEI of the wrong length is refused with its length, not cut.
 */
import { deviceTypeEndpoints, imeiLuhnValid, type LockRecord, type LockSecret, lockEndpoints } from '@iot/contract';
import { Col, Form, Input, Modal, Row, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { maxChars } from '../../components/formRules';

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
    form,
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
  const required = { required: true, whitespace: true };

  return (
    <Modal open={open} title={editing ? t('editTitle', { imei: editing.imei }) : t('register')} okText={t('ok')} cancelText={t('cancel')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} width={600} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off" initialValues={{ simulated: false }}>
        {!editing && (
          <Form.Item htmlFor="lock-imei" name="imei" label={t('imei')} rules={[required, { validator: async (_, value?: string) => {
            const imei = value?.trim() ?? '';
            if (imei && !/^\d{15}$/.test(imei)) throw new Error(t('imeiDigits', { count: imei.length }));
            if (imei && !imeiLuhnValid(imei)) throw new Error(t('imeiInvalid'));
          } }]}>
            <Input id="lock-imei" inputMode="numeric" />
          </Form.Item>
        )}
        <Row gutter={16}>
          <Col span={16}>
            <Form.Item htmlFor="lock-name" name="name" label={t('name')} rules={[required, maxChars(64)]}>
              <Input id="lock-name" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item htmlFor="lock-model" name="model" label={t('deviceType')} rules={[required]}>
              <Select id="lock-model" options={(types ?? []).filter((type) => type.kind === 'lock').map((type) => ({ value: type.model, label: type.model }))} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          {(['building', 'floor', 'room'] as const).map((part) => (
            <Col key={part} span={8}>
              <Form.Item name={part} label={t(part === 'room' ? 'roomNo' : part)} rules={[maxChars(32)]}>
                <Input id={`lock-${part}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Form.Item name="iccid" label={t('iccid')} rules={[maxChars(20), { pattern: /^\d{19,20}$/, message: t('iccidInvalid') }]}>
          <Input inputMode="numeric" />
        </Form.Item>
        <Form.Item name="note" label={t('note')} rules={[maxChars(200)]}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
        <Form.Item htmlFor="lock-simulated" name="simulated" label={t('simulated')} valuePropName="checked" extra={t('simulatedHelp')}>
          <Switch id="lock-simulated" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
