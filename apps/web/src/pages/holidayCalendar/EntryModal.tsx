/**
 * Add or edit one entry of a holiday calendar (POST /iot/v1/holidayCalendar/entry): a public holiday
 * (dates and the locks' Matter operating mode meanwhile, default vacation = no user access) or a 调休
 * working day (dates and the weekday whose schedules apply).
 */
import { type HolidayEntryRecord, holidayCalendarEndpoints, OPERATING_MODE_LABELS, OPERATING_MODES, type OperatingMode, WEEK_DAY_LABELS, WEEK_DAYS, type WeekDay } from '@iot/contract';
import { DatePicker, Form, Input, Modal, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useLanguage } from '../../hooks/useSession';
import { useOperation } from '../../components/credential/shared';

interface Values { kind: 'holiday' | 'workday'; name: string; dates: [Dayjs, Dayjs]; operatingMode?: OperatingMode; worksAs?: WeekDay }

/** The modal form; `entry` undefined: add to `calendarId`. */
export function EntryModal({ open, calendarId, entry, onClose }: { open: boolean; calendarId: number; entry?: HolidayEntryRecord; onClose(): void }) {
  const { t } = useTranslation('holidayCalendar');
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(holidayCalendarEndpoints.entries, holidayCalendarEndpoints.list);
  const kind = Form.useWatch('kind', form);
  const submit = async (v: Values) => {
    setSaving(true);
    const fields = {
      kind: v.kind, name: v.name.trim(), startDate: v.dates[0].format('YYYY-MM-DD'), endDate: v.dates[1].format('YYYY-MM-DD'),
      ...(v.kind === 'holiday' ? { operatingMode: v.operatingMode } : { worksAs: v.worksAs }),
    };
    const body = entry ? { action: 'modify' as const, id: entry.id, ...fields } : { action: 'add' as const, calendarId, ...fields };
    const done = await operate(() => call(holidayCalendarEndpoints.entry, { body }), t('saved'));
    setSaving(false);
    if (done) onClose();
  };
  const fill = () => form.setFieldsValue(entry
    ? { kind: entry.kind, name: entry.name, dates: [dayjs(entry.startDate), dayjs(entry.endDate)], operatingMode: entry.operatingMode, worksAs: entry.worksAs ?? 'monday' }
    : { kind: 'holiday', operatingMode: 'vacation', worksAs: 'monday' });
  return (
    <Modal open={open} title={entry ? t('editEntry') : t('addEntry')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={saving} onOk={() => form.submit()}
      onCancel={onClose} afterClose={() => form.resetFields()} afterOpenChange={(opened) => opened && fill()} forceRender className="entry-modal">
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item name="kind" label={t('entryKind')}>
          <Radio.Group options={(['holiday', 'workday'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
        </Form.Item>
        <Form.Item htmlFor="entry-name" name="name" label={t('entryName')} rules={[{ required: true, whitespace: true, message: t('required') }]}><Input id="entry-name" maxLength={64} /></Form.Item>
        <Form.Item htmlFor="entry-dates" name="dates" label={t('dates')} rules={[{ required: true, message: t('required') }]}>
          <DatePicker.RangePicker id="entry-dates" format="YYYY-MM-DD" style={{ width: '100%' }} />
        </Form.Item>
        {kind === 'workday' ? (
          <Form.Item name="worksAs" label={t('worksAs')} extra={t('worksAsHint')}>
            <Select options={WEEK_DAYS.map((day) => ({ value: day, label: WEEK_DAY_LABELS[day][language] }))} />
          </Form.Item>
        ) : (
          <Form.Item name="operatingMode" label={t('operatingMode')}>
            <Select options={OPERATING_MODES.map((mode) => ({ value: mode, label: OPERATING_MODE_LABELS[mode][language] }))} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
