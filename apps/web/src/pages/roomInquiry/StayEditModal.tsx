/**
 * 修改入住 / Edit a stay (POST /iot/v1/stay/edit) of a booked or checked-in stay: the
 * booking form's fields (StayFormFields) filled with the stay's times, kind (sent when changed),
 * guests (an empty ID card keeps the guest's), buffers and reference. The guest list replaces the old
 * one; a guest whose name and mobile are unchanged keeps their doors, so an extension only moves the
 * windows.
 */
import { stayEndpoints, type StayEditBody, type StayRecord } from '@iot/contract';
import { Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { toPicker } from '../../lib/timeZone';
import { STAY_FORM_FIELDS, StayFormFields, type StayFormValues, stayBodyOf } from './StayFormFields';

const MINUTE = 'YYYY-MM-DD HH:mm';

/** The form's values of `stay`. */
const valuesOf = (stay: StayRecord): StayFormValues => ({
  kind: stay.kind, times: [toPicker(stay.checkInAt), toPicker(stay.checkOutAt)],
  guests: stay.guests.map((g) => ({ name: g.name, mobile: g.mobile, idCardMasked: g.idCardMasked })),
  bufferBeforeMinutes: stay.bufferBeforeMinutes, bufferAfterMinutes: stay.bufferAfterMinutes, reference: stay.reference ?? '',
});

const sameMinute = (picked: Dayjs, at: string) => picked.format(MINUTE) === toPicker(at).format(MINUTE);

/** The dialog for `stay` (closed when undefined). */
export function StayEditModal({ stay, onClose }: { stay?: StayRecord; onClose(): void }) {
  const { t } = useTranslation('stay');
  const [form] = Form.useForm<StayFormValues>();
  const edit = useApiMutation({
    mutationFn: (body: StayEditBody) => call(stayEndpoints.edit, { body }),
    invalidate: [stayEndpoints.list, stayEndpoints.detail, stayEndpoints.notReady], form, fields: STAY_FORM_FIELDS, success: t('done'), onSuccess: onClose,
  });
  const submit = (v: StayFormValues) => {
    if (!stay) return;
    const { checkInAt, checkOutAt, ...rest } = stayBodyOf(v);
    // A time left as shown is not sent: the picker's minutes would move it (and re-arm the 1-hour check) by seconds.
    void edit.run({
      id: stay.id, ...rest, reference: rest.reference ?? '', ...(v.kind === stay.kind ? {} : { kind: v.kind }),
      ...(sameMinute(v.times[0], stay.checkInAt) ? {} : { checkInAt }), ...(sameMinute(v.times[1], stay.checkOutAt) ? {} : { checkOutAt }),
    });
  };
  return (
    <Modal open={stay !== undefined} title={t('editTitle')} onCancel={onClose} onOk={() => form.submit()} okText={t('save')} confirmLoading={edit.isPending}
      width={700} className="stay-edit-modal" destroyOnHidden>
      {stay && (
        <Form form={form} layout="vertical" initialValues={valuesOf(stay)} onFinish={submit} autoComplete="off">
          <StayFormFields open />
        </Form>
      )}
    </Modal>
  );
}
