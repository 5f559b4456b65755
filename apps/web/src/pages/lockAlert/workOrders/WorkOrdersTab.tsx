/**
 * 门锁警告 -> 工单 (GET /iot/v1/workOrder/list): the data centre's work orders, newest first,
 * filtered by state, kind, priority and IMEI (the device page links here with `imei=`, an alert row
 * with `alertId=`); add and edit in WorkOrderModal; state changes as row actions (cancel after a
 * confirmation; closing a battery order asks for the new battery reading, which the next heartbeat confirms).
 */
import { type WorkOrderRecord, type WorkOrderState, workOrderEndpoints as api } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, InputNumber, Modal } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useApiMutation } from '../../../api/useApiMutation';
import { useLanguage } from '../../../hooks/useSession';
import { ServerTable } from '../../../components/ServerTable';
import { WORK_ORDER_FILTER_DEFAULTS, WorkOrderFilters, workOrderColumns, workOrderQuery } from './columns';
import { WorkOrderModal } from './WorkOrderModal';
import { WorkOrderPhotos } from './WorkOrderPhotos';

const REFETCH_MS = 10_000;

/** The work-order table with its form. */
export function WorkOrdersTab() {
  const { t } = useTranslation('workOrder');
  const language = useLanguage();
  const [editing, setEditing] = useState<{ record?: WorkOrderRecord; open: boolean }>({ open: false });
  const [closing, setClosing] = useState<WorkOrderRecord>();
  const [photosOf, setPhotosOf] = useState<WorkOrderRecord>();
  const [battery, setBattery] = useState<number | null>(null);
  const move = useApiMutation({
    mutationFn: (body: { id: number; state: WorkOrderState; battery?: number }) => call(api.transition, { body }),
    success: t('changed'), invalidate: [api.list], onSuccess: () => setClosing(undefined),
  });
  const columns = useMemo(() => workOrderColumns(t, language, {
    edit: (record) => setEditing({ record, open: true }),
    photos: setPhotosOf,
    move: (row, state) => {
      if (state === 'DONE' && row.kind === 'batteryReplacement') { setBattery(null); setClosing(row); } else void move.run({ id: row.id, state });
    },
  }), [t, language, move.run]);

  return (
    <>
      <ServerTable<WorkOrderRecord>
        endpoint={api.list} columns={columns} rowKey="id" filters={<WorkOrderFilters t={t} language={language} />}
        initialFilters={WORK_ORDER_FILTER_DEFAULTS} toQuery={workOrderQuery} refetchInterval={REFETCH_MS} defaultSort={{ field: 'createdAt' }}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })}>{t('add')}</Button>}
      />
      <WorkOrderModal {...editing} onClose={() => setEditing((s) => ({ ...s, open: false }))} />
      <Modal open={Boolean(photosOf)} title={`${t('photos')} · #${photosOf?.id ?? ''} ${photosOf?.title ?? ''}`} footer={null} width={640} onCancel={() => setPhotosOf(undefined)} destroyOnHidden>
        {photosOf && <WorkOrderPhotos workOrderId={photosOf.id} />}
      </Modal>
      <Modal open={Boolean(closing)} title={t('doneTitle')} okText={t('ok')} cancelText={t('close')} okButtonProps={{ disabled: battery === null }}
        confirmLoading={move.isPending} onCancel={() => setClosing(undefined)}
        onOk={() => closing && battery !== null && void move.run({ id: closing.id, state: 'DONE', battery })}>
        <Form layout="vertical">
          <Form.Item htmlFor="work-order-battery" label={t('battery')} extra={t('batteryHint')}>
            <InputNumber id="work-order-battery" min={0} max={100} precision={0} value={battery} onChange={(v) => setBattery(v)} style={{ width: 160 }} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
