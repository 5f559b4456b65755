/**
 * 预订入住 / Book a stay (issue #27; POST /iot/v1/stay/add) for the room of 产品 RoomInquiry: guests
 * (name, mobile, optional ID card), check-in and check-out (a RangePicker read in the data centre's
 * zone), kind and buffers (empty: the data centre's defaults, GET /iot/v1/tenant/settings, shown as the
 * fields' placeholders; the server applies them). The server's field errors land on the form.
 */
import { STAY_KINDS, stayEndpoints, type StayAddBody, tenantEndpoints } from '@iot/contract';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { fromPicker } from '../../app/timeZone';

interface Values {
  kind: StayAddBody['kind'];
  guests: { name: string; mobile: string; idCardNumber?: string }[];
  times: [Dayjs, Dayjs];
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
}
const FIELDS = { 'body.checkInAt': 'times', 'body.checkOutAt': 'times', 'body.room': 'times' };

/** The dialog for `room`. */
export function StayBookModal({ open, room, onClose }: { open: boolean; room: StayAddBody['room']; onClose(): void }) {
  const { t } = useTranslation('stay');
  const [form] = Form.useForm<Values>();
  const { data: settings } = useApiQuery(tenantEndpoints.settings, undefined, { enabled: open });
  const add = useApiMutation({
    mutationFn: (body: StayAddBody) => call(stayEndpoints.add, { body }),
    invalidate: [stayEndpoints.list], form, fields: FIELDS, success: t('done'), onSuccess: onClose,
  });
  const submit = (v: Values) => void add.run({
    room, kind: v.kind, checkInAt: fromPicker(v.times[0]).format(), checkOutAt: fromPicker(v.times[1]).format(),
    guests: v.guests.map((g) => ({ name: g.name.trim(), mobile: g.mobile, ...(g.idCardNumber ? { idCardNumber: g.idCardNumber } : {}) })),
    ...(v.bufferBeforeMinutes === undefined || v.bufferBeforeMinutes === null ? {} : { bufferBeforeMinutes: v.bufferBeforeMinutes }),
    ...(v.bufferAfterMinutes === undefined || v.bufferAfterMinutes === null ? {} : { bufferAfterMinutes: v.bufferAfterMinutes }),
  });
  return (
    <Modal open={open} title={t('book')} onCancel={onClose} onOk={() => form.submit()} okText={t('save')} confirmLoading={add.isPending}
      width={640} className="stay-book-modal" destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ kind: 'hotelNight', guests: [{}] }} onFinish={submit} autoComplete="off">
        <Space align="start" wrap>
          <Form.Item name="times" label={t('times')} rules={[{ required: true }]}>
            <DatePicker.RangePicker id="stay-times" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.Item name="kind" label={t('kind')}>
            <Select id="stay-kind" style={{ width: 140 }} options={STAY_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
          </Form.Item>
        </Space>
        <Form.List name="guests">
          {(fields, { add: addGuest, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item name={[field.name, 'name']} label={t('guestName')} rules={[{ required: true, whitespace: true, max: 50 }]}><Input /></Form.Item>
                  <Form.Item name={[field.name, 'mobile']} label={t('mobile')} rules={[{ required: true, pattern: /^1[3-9]\d{9}$/ }]}><Input inputMode="tel" maxLength={11} /></Form.Item>
                  <Form.Item name={[field.name, 'idCardNumber']} label={t('idCard')} rules={[{ pattern: /^\d{17}[\dXx]$/ }]}><Input maxLength={18} /></Form.Item>
                  {fields.length > 1 && <Button type="link" className="stay-guest-remove" onClick={() => remove(field.name)}>×</Button>}
                </Space>
              ))}
              {fields.length < 10 && <Form.Item><Button onClick={() => addGuest({})} className="stay-guest-add">{t('addGuest')}</Button></Form.Item>}
            </>
          )}
        </Form.List>
        <Space align="start" wrap className="stay-buffers">
          <Form.Item name="bufferBeforeMinutes" label={t('bufferBefore')}><InputNumber min={0} max={1440} precision={0} placeholder={settings?.stayBufferBeforeMinutes.toString()} /></Form.Item>
          <Form.Item name="bufferAfterMinutes" label={t('bufferAfter')}><InputNumber min={0} max={1440} precision={0} placeholder={settings?.stayBufferAfterMinutes.toString()} /></Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
