/**
 * 门锁配置's batch push (POST /iot/v1/lockConfig/batch): one configuration to the selected
 * locks (by IMEI) or to every lock of a group (分组管理), each lock queued on its own; the answer says
 * how many were queued and which locks refused (a full queue) or were not found.
 */
import { commandEndpoints, type DeviceTarget, type LockConfigBatchResult, lockGroupEndpoints, type protocol } from '@iot/contract';
import { Form, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { ConfigFields, filledConfig } from '../../components/LockConfigModal';
import { useMessage } from '../../components/appMessage';
import { useLanguage } from '../../hooks/useSession';

type Values = protocol.LockConfig & { targetKind: 'selected' | 'group'; groupId?: number };

export interface BatchConfigModalProps {
  open: boolean;
  /** IMEIs of the selected rows (may be empty: then only a group can be the target). */
  imeis: readonly string[];
  onClose(): void;
  /** After the commands were queued. */
  onDone(): void;
}

/** The batch configuration dialog. */
export function BatchConfigModal({ open, imeis, onClose, onDone }: BatchConfigModalProps) {
  const { t } = useTranslation('command');
  const message = useMessage();
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('targetKind', form);
  const { data: groups } = useApiQuery(lockGroupEndpoints.options, undefined, { enabled: open });
  const push = useApiMutation({
    form,
    mutationFn: (body: { target: DeviceTarget; config: protocol.LockConfig }) => call(commandEndpoints.lockConfigBatch, { body }),
    success: (result: LockConfigBatchResult) => t('batchQueued', { queued: result.queued, refused: result.refused.length + result.unknownImeis.length }),
    invalidate: [commandEndpoints.lockConfigList, commandEndpoints.simpleList],
    onSuccess: (result: LockConfigBatchResult) => {
      // Why each lock refused (a setting its device type cannot hold, a full queue), a few at most.
      const reasons = result.refused.slice(0, 3).map((refusal) => `${refusal.imei}: ${refusal.message[language]}`);
      if (reasons.length > 0) message.warning(reasons.join('\n') + (result.refused.length > 3 ? ' …' : ''));
      onDone();
    },
  });
  const submit = ({ targetKind, groupId, ...values }: Values) => {
    const config = filledConfig(values);
    if (Object.keys(config).length === 0) return void message.warning(t('atLeastOne'));
    const target: DeviceTarget = targetKind === 'group' ? { groupId } : { imeis: [...imeis] };
    void push.run({ target, config });
  };
  return (
    <Modal open={open} title={t('batchConfig')} okText={t('submit')} confirmLoading={push.isPending} onOk={() => form.submit()} onCancel={onClose}
      destroyOnHidden className="batch-config-modal">
      <Form form={form} layout="horizontal" labelCol={{ span: 8 }} onFinish={submit} preserve={false}
        initialValues={{ targetKind: imeis.length > 0 ? 'selected' : 'group' }}>
        <Form.Item name="targetKind" label={t('target')}>
          <Radio.Group options={[
            { value: 'selected', label: t('selectedLocks', { count: imeis.length }), disabled: imeis.length === 0 },
            { value: 'group', label: t('aGroup') },
          ]} />
        </Form.Item>
        {kind === 'group' && (
          <Form.Item htmlFor="batch-config-group" name="groupId" label={t('group')} rules={[{ required: true }]}>
            <Select id="batch-config-group" showSearch optionFilterProp="label" style={{ width: 220 }} placeholder={t('pickGroup')}
              options={(groups ?? []).map((group) => ({ value: group.id, label: group.name }))} />
          </Form.Item>
        )}
        <ConfigFields />
      </Form>
    </Modal>
  );
}
