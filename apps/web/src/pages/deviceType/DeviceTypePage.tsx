/**
 * 设备类型: the data centre's device types (GET /iot/v1/equipmentType/list) with the number
 * of devices using each (a link to 门锁信息 filtered to the model); holders of DEVICE_TYPE_EDIT add,
 * edit and delete types (a type in use cannot be deleted).
 */
import { type DeviceTypeRecord, deviceTypeEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useAllowed } from '../../hooks/useSession';
import { ServerTable } from '../../components/ServerTable';
import { typeColumns } from './columns';
import { TypeModal } from './TypeModal';

function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The device-type page. */
export default function DeviceTypePage() {
  const { t } = useTranslation(['deviceType', 'deviceLog']);
  const mayEdit = useAllowed('DEVICE_TYPE_EDIT');
  const [modal, setModal] = useState<{ open: boolean; editing?: DeviceTypeRecord }>({ open: false });
  const remove = useApiMutation({
    mutationFn: (id: number) => call(deviceTypeEndpoints.delete, { body: { id } }), success: t('deleted'),
    invalidate: [deviceTypeEndpoints.list, deviceTypeEndpoints.options],
  });
  const removeRun = remove.run;
  const columns = useMemo(() => typeColumns(t, mayEdit ? {
    edit: (editing) => setModal({ open: true, editing }),
    remove: (type) => removeRun(type.id),
  } : undefined), [t, mayEdit, removeRun]);
  const filters = (
    <Form.Item htmlFor="type-keyword" name="keyword" label={t('keyword')}>
      <Input id="type-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  const toolbar = mayEdit ? <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal({ open: true })}>{t('add')}</Button> : undefined;
  return (
    <>
      <ServerTable<DeviceTypeRecord> endpoint={deviceTypeEndpoints.list} columns={columns} rowKey="id" filters={filters} toQuery={toQuery} toolbar={toolbar} />
      <TypeModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))} />
    </>
  );
}
