/**
 * Config push form (POST /iot/v1/lockConfig): the five protocol.lockConfig fields, prefilled with what
 * the lock last reported; only changed or filled fields are sent. The command is queued and sent when
 * the lock next wakes up.
 */
import { commandEndpoints, type Endpoint, type LockConfigRecord, type protocol } from '@iot/contract';
import { Form, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { showFieldErrors } from '../api/fieldErrors';
import { useApiMutation } from '../api/useApiMutation';
import { useMessage } from './appMessage';
import { useLanguage } from '../hooks/useSession';
import { numberRange } from './formRules';

type Values = protocol.LockConfig;

/** What the form needs of a lock: its id, IMEI and reported configuration (the prefill). */
type ConfigTarget = Pick<LockConfigRecord, 'id' | 'imei' | 'config'>;

/** Modal for `lock` (closed when undefined); `onDone` after a command was queued; `invalidate`: more queries to refresh after it. */
export function ConfigModal({ lock, onClose, onDone, invalidate = [] }: { lock: ConfigTarget | undefined; onClose: () => void; onDone: () => void; invalidate?: readonly Endpoint[] }) {
  const { t } = useTranslation('command');
  const message = useMessage();
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const push = useApiMutation({
    mutationFn: (body: { lockId: number; config: Partial<Values> }) => call(commandEndpoints.lockConfig, { body, quiet: true }),
    success: t('queued'),
    // A setting the lock's device type cannot hold shows under its field, with the type's limit.
    errorText: (error) => showFieldErrors(form, error, 'body.config.', language),
    invalidate: [commandEndpoints.lockConfigList, commandEndpoints.simpleList, ...invalidate],
    onSuccess: onDone,
  });
  const submit = (values: Values) => {
    const config = filledConfig(values);
    if (!lock) return;
    if (Object.keys(config).length === 0) return void message.warning(t('atLeastOne'));
    void push.run({ lockId: lock.id, config });
  };

  return (
    <Modal
      open={lock !== undefined} title={`${t('pushConfig')} · ${lock?.imei ?? ''}`} okText={t('submit')} confirmLoading={push.isPending}
      onOk={() => form.submit()} onCancel={onClose} destroyOnHidden
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 8 }} initialValues={lock?.config ?? {}} onFinish={submit} preserve={false}>
        <ConfigFields />
      </Form>
    </Modal>
  );
}

/** The five configuration fields (Form.Items named after protocol.lockConfig's keys; ids `config-<key>`). */
export function ConfigFields() {
  const { t } = useTranslation('command');
  const range = (key: 'volume' | 'autoLockS' | 'heartbeatIntervalS' | 'wrongAttemptLimit', min: number, max: number) => (
    <Form.Item name={key} label={t(key)} rules={numberRange(min, max)}>
      <InputNumber id={`config-${key}`} style={{ width: 160 }} />
    </Form.Item>
  );
  return (
    <>
      {range('volume', 0, 100)}
      {range('autoLockS', 0, 3600)}
      {range('heartbeatIntervalS', 10, 86_400)}
      {range('wrongAttemptLimit', 1, 20)}
      <Form.Item name="language" label={t('language')}>
        <Select allowClear style={{ width: 160 }} options={[{ value: 'zh-CN', label: '中文' }, { value: 'en-US', label: 'English' }]} />
      </Form.Item>
    </>
  );
}

/** The filled fields of the form's values (what a push sends); empty when none is. */
export function filledConfig(values: Partial<Values>): Partial<Values> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== null));
}
