/** Create or edit a lock group (POST /iot/v1/lockGroup/add, /update): name and description. */
import { type LockGroupRecord, lockGroupEndpoints } from '@iot/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { maxChars } from '../../components/formRules';

interface Values { name: string; description?: string }

/** Open with `editing` to edit a group, without to create one. */
export function GroupModal({ open, editing, onClose }: { open: boolean; editing?: LockGroupRecord; onClose(): void }) {
  const { t } = useTranslation('group');
  const [form] = Form.useForm<Values>();
  const save = useApiMutation({
    form,
    mutationFn: (values: Values) => (editing
      ? call(lockGroupEndpoints.update, { body: { id: editing.id, name: values.name, description: values.description ?? '' } })
      : call(lockGroupEndpoints.add, { body: { name: values.name, description: values.description ?? '' } })),
    success: t('saved'), invalidate: [lockGroupEndpoints.list, lockGroupEndpoints.options], onSuccess: onClose,
  });
  return (
    <Modal open={open} title={editing ? t('editTitle', { name: editing.name }) : t('create')} okText={t('save')} cancelText={t('cancel')}
      onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} initialValues={editing ?? {}} onFinish={(values) => void save.run(values)}>
        <Form.Item htmlFor="group-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true }, maxChars(64)]}>
          <Input id="group-name" />
        </Form.Item>
        <Form.Item htmlFor="group-description" name="description" label={t('description')} rules={[maxChars(200)]}>
          <Input.TextArea id="group-description" rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
