/**
 * 设备类型 (issue #11): the data centre's device types (GET /iot/v1/equipmentType/list) with the number
 * of devices using each (a link to 门锁信息 filtered to the model); holders of DEVICE_TYPE_EDIT add,
 * edit and delete types (a type in use cannot be deleted).
 */
import { type DeviceTypeRecord, deviceTypeEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useInvalidate } from '../../api/useInvalidate';
import { useAllowed } from '../../app/useSession';
import { ServerTable } from '../../components/ServerTable';
import { typeColumns } from './columns';
import { TypeModal } from './TypeModal';

function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The device-type page. */
export default function EquipmentTypePage() {
  const { t } = useTranslation(['deviceType', 'deviceLog']);
  const { message } = App.useApp();
  const mayEdit = useAllowed('DEVICE_TYPE_EDIT');
  const [modal, setModal] = useState<{ open: boolean; editing?: DeviceTypeRecord }>({ open: false });
  const refresh = useInvalidate(deviceTypeEndpoints.list, deviceTypeEndpoints.options);
  const columns = useMemo(() => typeColumns(t, mayEdit ? {
    edit: (editing) => setModal({ open: true, editing }),
    remove: async (type) => {
      try {
        await call(deviceTypeEndpoints.delete, { body: { id: type.id } });
        message.success(t('deleted'));
      } catch {
        /* shown by the client */
      }
      await refresh();
    },
  } : undefined), [t, mayEdit, message, refresh]);
  const filters = (
    <Form.Item name="keyword" label={t('keyword')}>
      <Input id="type-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  const toolbar = mayEdit ? <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal({ open: true })}>{t('add')}</Button> : undefined;
  return (
    <>
      <ServerTable<DeviceTypeRecord> endpoint={deviceTypeEndpoints.list} columns={columns} rowKey="id" filters={filters} toQuery={toQuery} toolbar={toolbar} />
      <TypeModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))} onSaved={() => void refresh()} />
    </>
  );
}
