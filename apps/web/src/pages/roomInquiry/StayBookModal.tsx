/**
 * 预订入住 / Book a stay (POST /iot/v1/stay/add) for the room of 产品 RoomInquiry: the
 * stay's fields (StayFormFields: times, kind, guests, buffers, reference); the server applies the data
 * centre's buffers to empty ones. The server's field errors land on the form.
 */
import { stayEndpoints, type StayAddBody } from '@iot/contract';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { STAY_FORM_FIELDS, StayFormFields, type StayFormValues, stayBodyOf } from './StayFormFields';

/** The dialog for `room`. */
export function StayBookModal({ open, room, onClose }: { open: boolean; room: StayAddBody['room']; onClose(): void }) {
  const { t } = useTranslation('stay');
  const [form] = Form.useForm<StayFormValues>();
  const add = useApiMutation({
    mutationFn: (body: StayAddBody) => call(stayEndpoints.add, { body }),
    invalidate: [stayEndpoints.list], form, fields: STAY_FORM_FIELDS, success: t('done'), onSuccess: onClose,
  });
  return (
    <Modal open={open} title={t('book')} onCancel={onClose} onOk={() => form.submit()} okText={t('save')} confirmLoading={add.isPending}
      width={700} className="stay-book-modal" destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ kind: 'hotelNight', guests: [{}] }} autoComplete="off"
        onFinish={(v) => void add.run({ room, kind: v.kind ?? 'hotelNight', ...stayBodyOf(v) })}>
        <StayFormFields open={open} />
      </Form>
    </Modal>
  );
}
