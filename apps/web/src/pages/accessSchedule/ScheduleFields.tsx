/**
 * The fields of one schedule (Matter WeekDaySchedule / YearDaySchedule), shared by the schedule dialog
 * and the template dialog: the kind, then days of the week and a start and end time (the lock's local
 * time), or a date-time range. `toSchedule` turns the form values into the contract's scheduleInput.
 */
import { SCHEDULE_KIND_LABELS, SCHEDULE_KINDS, type ScheduleInput, WEEK_DAY_LABELS, WEEK_DAYS, type WeekDay } from '@iot/contract';
import { Checkbox, DatePicker, Form, Radio, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../hooks/useSession';

export interface ScheduleValues {
  kind: 'weekDay' | 'yearDay';
  days?: WeekDay[];
  times?: [Dayjs, Dayjs];
  range?: [Dayjs, Dayjs];
}

/** Form values -> the contract's schedule input. */
export function toSchedule(v: ScheduleValues): ScheduleInput {
  if (v.kind === 'weekDay') {
    const [start, end] = v.times as [Dayjs, Dayjs];
    return { kind: 'weekDay', days: WEEK_DAYS.filter((day) => v.days?.includes(day)), startTime: start.format('HH:mm'), endTime: end.format('HH:mm') };
  }
  const [from, to] = v.range as [Dayjs, Dayjs];
  return { kind: 'yearDay', localStartTime: from.second(0).format(), localEndTime: to.second(0).format() };
}

/** Kind, days and times (or range) as Form.Items; `kindLocked`: a schedule being modified keeps its kind. */
export function ScheduleFields({ kind, kindLocked = false }: { kind: ScheduleValues['kind'] | undefined; kindLocked?: boolean }) {
  const { t } = useTranslation('accessSchedule');
  const language = useLanguage();
  return (
    <>
      <Form.Item name="kind" label={t('kind')}>
        <Radio.Group disabled={kindLocked} options={SCHEDULE_KINDS.map((k) => ({ value: k, label: SCHEDULE_KIND_LABELS[k][language] }))} />
      </Form.Item>
      {kind !== 'yearDay' ? (
        <>
          <Form.Item name="days" label={t('days')} rules={[{ required: true, message: t('required') }]}>
            <Checkbox.Group className="schedule-days" options={WEEK_DAYS.map((day) => ({ value: day, label: WEEK_DAY_LABELS[day][language] }))} />
          </Form.Item>
          <Form.Item htmlFor="schedule-times" name="times" label={t('times')} extra={t('timesHint')} rules={[{ required: true, message: t('required') }]}>
            <TimePicker.RangePicker id="schedule-times" format="HH:mm" minuteStep={5} order />
          </Form.Item>
        </>
      ) : (
        <Form.Item htmlFor="schedule-range" name="range" label={t('range')} rules={[{ required: true, message: t('required') }]}>
          <DatePicker.RangePicker id="schedule-range" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
      )}
    </>
  );
}
