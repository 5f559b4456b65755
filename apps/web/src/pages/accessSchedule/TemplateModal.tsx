/**
 * 批量应用时间表模板 (POST /iot/v1/accessSchedule/applyTemplate): one schedule for every lock user of a
 * group or a building whose name or phone contains a keyword (e.g. 保洁) and, optionally, of a user
 * type; with "replace" their schedules of that kind are rewritten. Then each lock's progress.
 */
import { accessScheduleEndpoints, holidayCalendarEndpoints, USER_TYPE_LABELS, USER_TYPES } from '@iot/contract';
import { Checkbox, Form, Input, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { useLanguage } from '../../hooks/useSession';
import { type Locks, MultiLockProgress } from '../../components/credential/MultiLockProgress';
import { useOperation } from '../../components/credential/shared';
import { ScheduleFields, type ScheduleValues, toSchedule } from './ScheduleFields';

interface Values extends ScheduleValues {
  by: 'group' | 'building';
  groupId?: number;
  building?: string;
  userKeyword?: string;
  userType?: (typeof USER_TYPES)[number];
  replace: boolean;
}

/** The template dialog; after applying it shows each lock's progress. */
export function TemplateModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('accessSchedule');
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const [locks, setLocks] = useState<Locks>();
  const [saving, setSaving] = useState(false);
  const operate = useOperation(accessScheduleEndpoints.list);
  const { data: scope } = useApiQuery(holidayCalendarEndpoints.scopeOptions, {}, { enabled: open });
  const by = Form.useWatch('by', form);
  const kind = Form.useWatch('kind', form);
  const submit = async (v: Values) => {
    setSaving(true);
    const target = v.by === 'group' ? { groupId: v.groupId as number } : { filter: { building: v.building as string } };
    const result = await operate(() => call(accessScheduleEndpoints.applyTemplate, {
      body: { target, userKeyword: v.userKeyword?.trim() || undefined, userType: v.userType, schedules: [toSchedule(v)], replace: v.replace },
    }), t('templateSent'));
    setSaving(false);
    if (result) setLocks(result.locks);
  };
  return (
    <Modal open={open} title={t('template')} okText={locks ? t('close') : t('apply')} cancelText={t('cancel')} confirmLoading={saving} width={640}
      onOk={() => (locks ? onClose() : form.submit())} onCancel={onClose} afterClose={() => { form.resetFields(); setLocks(undefined); }} forceRender className="template-modal">
      {locks ? <MultiLockProgress locks={locks} /> : (
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off"
          initialValues={{ by: 'group', kind: 'weekDay', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], replace: true }}>
          <Form.Item name="by" label={t('targetBy')}>
            <Radio.Group options={(['group', 'building'] as const).map((value) => ({ value, label: t(`targets.${value}`) }))} />
          </Form.Item>
          {by === 'building' ? (
            <Form.Item htmlFor="template-building" name="building" label={t('targets.building')} rules={[{ required: true, message: t('required') }]}>
              <Select id="template-building" options={(scope?.buildings ?? []).map((b) => ({ value: b, label: b }))} showSearch />
            </Form.Item>
          ) : (
            <Form.Item htmlFor="template-group" name="groupId" label={t('targets.group')} rules={[{ required: true, message: t('required') }]}>
              <Select id="template-group" options={(scope?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))} showSearch optionFilterProp="label" />
            </Form.Item>
          )}
          <Form.Item htmlFor="template-keyword" name="userKeyword" label={t('userKeyword')} extra={t('userKeywordHint')}><Input id="template-keyword" maxLength={64} /></Form.Item>
          <Form.Item name="userType" label={t('userType')}>
            <Select allowClear options={USER_TYPES.map((type) => ({ value: type, label: USER_TYPE_LABELS[type][language] }))} />
          </Form.Item>
          <ScheduleFields kind={kind} />
          <Form.Item name="replace" valuePropName="checked" extra={t('replaceHint')}><Checkbox>{t('replace')}</Checkbox></Form.Item>
        </Form>
      )}
    </Modal>
  );
}
