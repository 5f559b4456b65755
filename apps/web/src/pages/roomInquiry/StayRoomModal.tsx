/** 换房 / Change room (POST /iot/v1/stay/changeRoom): the new building, floor and room of a stay. */
import { stayEndpoints, type StayRecord } from '@iot/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

interface Values { building: string; floor: string; room: string }

/** The dialog for `stay` (closed when undefined). */
export function StayRoomModal({ stay, onClose }: { stay?: StayRecord; onClose(): void }) {
  const { t } = useTranslation('stay');
  const [form] = Form.useForm<Values>();
  const move = useApiMutation({
    mutationFn: (room: Values) => call(stayEndpoints.changeRoom, { body: { id: stay?.id as number, room } }),
    invalidate: [stayEndpoints.list], form, fields: { 'body.room': 'room', 'body.checkInAt': 'room' }, success: t('done'), onSuccess: onClose,
  });
  return (
    <Modal open={stay !== undefined} title={t('changeRoom')} onCancel={onClose} onOk={() => form.submit()} okText={t('save')} confirmLoading={move.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={stay ? { building: stay.building, floor: stay.floor, room: stay.room } : {}}
        onFinish={(v) => void move.run({ building: v.building.trim(), floor: v.floor.trim(), room: v.room.trim() })} autoComplete="off">
        <Form.Item htmlFor="stay-building" name="building" label={t('building')}><Input id="stay-building" /></Form.Item>
        <Form.Item htmlFor="stay-floor" name="floor" label={t('floor')}><Input id="stay-floor" /></Form.Item>
        <Form.Item htmlFor="stay-room" name="room" label={t('room')} rules={[{ required: true, whitespace: true }]}><Input id="stay-room" /></Form.Item>
      </Form>
    </Modal>
  );
}
