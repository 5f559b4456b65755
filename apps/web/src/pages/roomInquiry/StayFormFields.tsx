/**
 * The fields of a stay's form, shared by 预订入住 (StayBookModal) and 修改入住
 * (StayEditModal): check-in / check-out (a RangePicker read in the data centre's zone), kind (an edit
 * may change it too), guests (name, mobile, optional ID card; on an edit an empty ID card keeps the
 * guest's, whose masked form is the placeholder), buffers (empty: the data centre's defaults, shown as
 * placeholders) and the booking reference.
 */
import { STAY_KINDS, type StayAddBody, tenantEndpoints } from '@iot/contract';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { fromPicker } from '../../lib/timeZone';

export interface StayFormValues {
  kind?: StayAddBody['kind'];
  guests: { name: string; mobile: string; idCardNumber?: string; idCardMasked?: string | null }[];
  times: [Dayjs, Dayjs];
  bufferBeforeMinutes?: number | null;
  bufferAfterMinutes?: number | null;
  reference?: string;
}
/** Server fields -> form fields where they differ. */
export const STAY_FORM_FIELDS = { 'body.checkInAt': 'times', 'body.checkOutAt': 'times', 'body.room': 'times' };

/** Width of a guest's inputs, px: name, mobile, ID card and the remove button fit one line of the dialog. */
const GUEST_INPUT = { width: 180 };
const given = (value?: number | null) => (value === undefined || value === null ? undefined : value);

/** The body common to add and edit, from the form's values (a buffer or reference left empty is omitted). */
export function stayBodyOf(v: StayFormValues) {
  const before = given(v.bufferBeforeMinutes);
  const after = given(v.bufferAfterMinutes);
  const reference = v.reference?.trim();
  return {
    checkInAt: fromPicker(v.times[0]).format(), checkOutAt: fromPicker(v.times[1]).format(),
    guests: v.guests.map((g) => ({ name: g.name.trim(), mobile: g.mobile, ...(g.idCardNumber ? { idCardNumber: g.idCardNumber } : {}) })),
    ...(before === undefined ? {} : { bufferBeforeMinutes: before }), ...(after === undefined ? {} : { bufferAfterMinutes: after }),
    ...(reference ? { reference } : {}),
  };
}

/** The fields, inside the caller's Form. */
export function StayFormFields({ open }: { open: boolean }) {
  const { t } = useTranslation('stay');
  const form = Form.useFormInstance<StayFormValues>();
  const { data: settings } = useApiQuery(tenantEndpoints.settings, undefined, { enabled: open });
  return (
    <>
      <Space align="start" wrap>
        <Form.Item htmlFor="stay-times" name="times" label={t('times')} rules={[{ required: true }]}>
          <DatePicker.RangePicker id="stay-times" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
        </Form.Item>
        <Form.Item htmlFor="stay-kind" name="kind" label={t('kind')}>
          <Select id="stay-kind" style={{ width: 140 }} options={STAY_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
        </Form.Item>
      </Space>
      <Form.List name="guests">
        {(fields, { add: addGuest, remove }) => (
          <>
            {fields.map((field) => (
              <Space key={field.key} align="start" wrap>
                <Form.Item name={[field.name, 'name']} label={t('guestName')} rules={[{ required: true, whitespace: true, max: 50 }]}><Input style={GUEST_INPUT} /></Form.Item>
                <Form.Item name={[field.name, 'mobile']} label={t('mobile')} rules={[{ required: true, pattern: /^1[3-9]\d{9}$/ }]}><Input inputMode="tel" maxLength={11} style={GUEST_INPUT} /></Form.Item>
                <Form.Item name={[field.name, 'idCardNumber']} label={t('idCard')} rules={[{ pattern: /^\d{17}[\dXx]$/ }]}>
                  <Input maxLength={18} style={GUEST_INPUT} placeholder={form.getFieldValue(['guests', field.name, 'idCardMasked']) ?? undefined} />
                </Form.Item>
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
        <Form.Item htmlFor="stay-reference" name="reference" label={t('reference')} rules={[{ max: 64 }]}><Input id="stay-reference" style={{ width: 180 }} /></Form.Item>
      </Space>
    </>
  );
}
