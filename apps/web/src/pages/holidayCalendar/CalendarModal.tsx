/** Add or edit a holiday calendar (POST /iot/v1/holidayCalendar/save): its name and scope (buildings, lock groups). */
import { type HolidayCalendarRecord, holidayCalendarEndpoints } from '@iot/contract';
import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { useOperation } from '../../components/credential/shared';

interface Values { name: string; buildings: string[]; groupIds: number[] }

/** The modal form; `calendar` undefined: add. */
export function CalendarModal({ open, calendar, onClose }: { open: boolean; calendar?: HolidayCalendarRecord; onClose(): void }) {
  const { t } = useTranslation('holidayCalendar');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(holidayCalendarEndpoints.list);
  const { data: scope } = useApiQuery(holidayCalendarEndpoints.scopeOptions, {}, { enabled: open });
  const submit = async (v: Values) => {
    setSaving(true);
    const done = await operate(() => call(holidayCalendarEndpoints.save, { body: { id: calendar?.id, name: v.name.trim(), buildings: v.buildings ?? [], groupIds: v.groupIds ?? [] } }), t('saved'));
    setSaving(false);
    if (done) onClose();
  };
  return (
    <Modal open={open} title={calendar ? t('edit') : t('add')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()} onCancel={onClose}
      afterClose={() => form.resetFields()} forceRender className="calendar-modal"
      afterOpenChange={(opened) => opened && form.setFieldsValue(calendar ? { name: calendar.name, buildings: calendar.buildings, groupIds: calendar.groupIds } : { buildings: [], groupIds: [] })}>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item htmlFor="calendar-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('required') }]}><Input id="calendar-name" maxLength={64} /></Form.Item>
        <Form.Item htmlFor="calendar-buildings" name="buildings" label={t('buildings')} extra={t('scopeHint')}>
          <Select id="calendar-buildings" mode="multiple" options={(scope?.buildings ?? []).map((b) => ({ value: b, label: b }))} />
        </Form.Item>
        <Form.Item htmlFor="calendar-groups" name="groupIds" label={t('groups')}>
          <Select id="calendar-groups" mode="multiple" optionFilterProp="label" options={(scope?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
