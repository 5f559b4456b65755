/**
 * Add or edit a work order (contract workOrderAddBody / workOrderEditBody): title, kind, priority,
 * assignee (an account of the data centre), due time, notes and, for a new order, its locks by IMEI;
 * an existing order's photos below the form (WorkOrderPhotos).
 */
import { WORK_ORDER_KINDS, WORK_ORDER_LABELS, WORK_ORDER_PRIORITIES, type WorkOrderKind, type WorkOrderPriority, type WorkOrderRecord, workOrderEndpoints as api } from '@iot/contract';
import { Col, DatePicker, Form, Input, Modal, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useApiMutation } from '../../../api/useApiMutation';
import { useApiQuery } from '../../../api/useApiQuery';
import { useLanguage } from '../../../hooks/useSession';
import { maxChars } from '../../../components/formRules';
import { WorkOrderPhotos } from './WorkOrderPhotos';

interface Values { title: string; kind: WorkOrderKind; priority: WorkOrderPriority; assigneeId: number | null; dueAt: Dayjs | null; notes: string; locks: string[] }

/** The modal; `record` absent: a new order. */
export function WorkOrderModal({ record, open, onClose }: { record?: WorkOrderRecord; open: boolean; onClose(): void }) {
  const { t } = useTranslation('workOrder');
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const assignees = useApiQuery(api.assignees, undefined, { enabled: open });
  const save = useApiMutation({
    form,
    mutationFn: ({ locks, dueAt, ...values }: Values) => {
      const fields = { ...values, title: values.title.trim(), notes: values.notes ?? '', assigneeId: values.assigneeId ?? null, dueAt: dueAt ? dueAt.toISOString() : null };
      return record ? call(api.edit, { body: { ...fields, id: record.id } }) : call(api.add, { body: { ...fields, locks } });
    },
    success: t('saved'), invalidate: [api.list], onSuccess: onClose,
  });
  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(record
      ? { ...record, dueAt: record.dueAt ? dayjs(record.dueAt) : null, locks: record.locks.map((l) => l.imei) }
      : { kind: 'batteryReplacement', priority: 'normal', assigneeId: null, dueAt: null, notes: '', locks: [] });
  }, [open, record, form]);
  const labelled = <K extends string>(keys: readonly K[], labels: Record<K, Record<string, string>>) => keys.map((k) => ({ value: k, label: labels[k]?.[language] }));

  return (
    <Modal open={open} width={640} title={record ? t('editTitle') : t('add')} okText={t('ok')} cancelText={t('close')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} afterClose={() => form.resetFields()} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Form.Item htmlFor="work-order-title" name="title" label={t('title')} rules={[{ required: true, whitespace: true }, maxChars(100)]}><Input id="work-order-title" /></Form.Item>
        <Row gutter={16}>
          <Col span={12}><Form.Item htmlFor="work-order-kind" name="kind" label={t('kind')}><Select id="work-order-kind" options={labelled(WORK_ORDER_KINDS, WORK_ORDER_LABELS.kinds)} /></Form.Item></Col>
          <Col span={12}><Form.Item htmlFor="work-order-priority" name="priority" label={t('priority')}><Select id="work-order-priority" options={labelled(WORK_ORDER_PRIORITIES, WORK_ORDER_LABELS.priorities)} /></Form.Item></Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item htmlFor="work-order-assignee" name="assigneeId" label={t('assignee')}>
              <Select id="work-order-assignee" allowClear showSearch optionFilterProp="label" placeholder={t('unassigned')} loading={assignees.isLoading}
                options={(assignees.data ?? []).map((a) => ({ value: a.id, label: a.username }))} />
            </Form.Item>
          </Col>
          <Col span={12}><Form.Item htmlFor="work-order-dueAt" name="dueAt" label={t('dueAt')}><DatePicker id="work-order-dueAt" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} /></Form.Item></Col>
        </Row>
        <Form.Item htmlFor="work-order-locks" name="locks" label={t('locks')} rules={[{ required: true, type: 'array', min: 1 }]}>
          <Select id="work-order-locks" mode="tags" open={false} tokenSeparators={[',', '，', ' ']} placeholder={t('locksHint')} disabled={Boolean(record)} />
        </Form.Item>
        <Form.Item htmlFor="work-order-notes" name="notes" label={t('notes')} rules={[maxChars(2000)]}><Input.TextArea id="work-order-notes" rows={3} /></Form.Item>
      </Form>
      {record && open && <WorkOrderPhotos workOrderId={record.id} />}
    </Modal>
  );
}
