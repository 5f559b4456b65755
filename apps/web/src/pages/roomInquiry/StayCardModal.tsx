/**
 * 门卡 / Card (docs/stays.md "Cards"; POST /iot/v1/stay/card): the front desk gives a guest
 * of a booked or checked-in stay an IC card (its number as the reader prints it, hex), held on every
 * door beside the guest's password, or takes it back (confirmed). Each guest's current card is shown;
 * the stay's readiness light waits for the card like for the password.
 */
import { cardNumber, stayEndpoints, type StayRecord } from '@iot/contract';
import { Button, Form, Input, Modal, Popconfirm, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

interface Values { guestId: number; cardNumber: string }

/** The dialog for `stay` (closed when undefined). */
export function StayCardModal({ stay, onClose }: { stay?: StayRecord; onClose(): void }) {
  const { t } = useTranslation('stay');
  const [form] = Form.useForm<Values>();
  const guestId = Form.useWatch('guestId', form);
  const guest = stay?.guests.find((row) => row.id === guestId);
  const save = useApiMutation({
    mutationFn: (values: { guestId: number; cardNumber: string | null }) => call(stayEndpoints.card, { body: { id: stay?.id as number, ...values } }),
    invalidate: [stayEndpoints.list, stayEndpoints.detail], form, fields: { 'body.cardNumber': 'cardNumber', 'body.guestId': 'guestId' }, success: t('done'), onSuccess: onClose,
  });
  const valid = (value: string) => !value || cardNumber.safeParse(value).success;
  return (
    <Modal open={stay !== undefined} title={t('cardTitle')} onCancel={onClose} destroyOnHidden
      footer={(
        <Space>
          {guest?.cardNumber && (
            <Popconfirm title={t('cardTakeBackConfirm', { card: guest.cardNumber })} onConfirm={() => void save.run({ guestId: guest.id, cardNumber: null })}>
              <Button danger className="stay-card-take-back">{t('cardTakeBack')}</Button>
            </Popconfirm>
          )}
          <Button onClick={onClose}>{t('close')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>{t('cardIssue')}</Button>
        </Space>
      )}>
      <Form form={form} layout="vertical" autoComplete="off" initialValues={{ guestId: stay?.guests[0]?.id, cardNumber: '' }}
        onFinish={(values) => void save.run({ guestId: values.guestId, cardNumber: values.cardNumber.trim().toUpperCase() })}>
        <Form.Item htmlFor="stay-card-guest" name="guestId" label={t('cardGuest')} rules={[{ required: true }]}>
          <Select id="stay-card-guest" options={stay?.guests.map((row) => ({ value: row.id, label: `${row.name} ${row.mobile}` }))} />
        </Form.Item>
        <Typography.Paragraph type="secondary">
          {guest?.cardNumber ? t('cardCurrent', { card: guest.cardNumber }) : t('cardNone')}
        </Typography.Paragraph>
        <Form.Item htmlFor="stay-card-number" name="cardNumber" label={t('cardNumber')} extra={t('cardNumberHint')}
          rules={[{ required: true, whitespace: true, message: t('cardNumberRequired') }, { validator: (_, value: string) => (valid(value?.trim() ?? '') ? Promise.resolve() : Promise.reject(new Error(t('cardNumberInvalid')))) }]}>
          <Input id="stay-card-number" maxLength={20} placeholder="A1B2C3D4" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
