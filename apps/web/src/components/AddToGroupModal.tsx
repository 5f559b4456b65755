/**
 * Adds the locks of a device target to a group (POST /iot/v1/lockGroup/addMembers): 门锁信息's selected
 * rows or current filter (pick the group here), or a group's pasted IMEI list (分组管理, `groupId`
 * fixed). Unknown IMEIs are reported in the modal, in the operator's language.
 */
import { type DeviceTarget, type LockGroupAddMembersResult, lockEndpoints, lockGroupEndpoints } from '@iot/contract';
import { Alert, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { useApiQuery } from '../api/useApiQuery';
import { addResultText } from './addResult';

/** IMEIs pasted as text: split on white space, commas and semicolons (ASCII or full width). */
export function parseImeis(text: string): string[] {
  return [...new Set(text.split(/[\s,;，；、]+/).map((part) => part.trim()).filter(Boolean))];
}

export interface AddToGroupProps {
  open: boolean;
  /** The locks; undefined: an IMEI list typed in the modal. */
  target?: DeviceTarget;
  /** What the target is, for the title (e.g. "3 selected locks"). */
  description?: string;
  /** The group; undefined: picked in the modal. */
  groupId?: number;
  onClose(): void;
}

/** The modal. */
export function AddToGroupModal({ open, target, description, groupId, onClose }: AddToGroupProps) {
  const { t } = useTranslation('group');
  const [picked, setPicked] = useState<number>();
  const [text, setText] = useState('');
  const [result, setResult] = useState<ReturnType<typeof addResultText>>();
  const { data: groups } = useApiQuery(lockGroupEndpoints.options, undefined, { enabled: open && groupId === undefined });
  const add = useApiMutation({
    mutationFn: (body: { groupId: number; target: DeviceTarget }) => call(lockGroupEndpoints.addMembers, { body }),
    invalidate: [lockGroupEndpoints.list, lockEndpoints.list],
    success: (done: LockGroupAddMembersResult) => addResultText(t, done).summary,
    onSuccess: (done) => {
      const shown = addResultText(t, done);
      if (shown.unknown) setResult(shown);
      else close();
    },
  });
  const close = () => { setResult(undefined); setText(''); setPicked(undefined); onClose(); };
  const group = groupId ?? picked;
  const imeis = parseImeis(text);
  const ready = group !== undefined && (target !== undefined || imeis.length > 0);
  return (
    <Modal
      open={open} title={t('addTitle')} okText={result ? t('close') : t('add')} cancelText={t('cancel')} onCancel={close} destroyOnHidden
      okButtonProps={{ disabled: !ready, id: 'group-add-ok' }} confirmLoading={add.isPending}
      onOk={() => (result ? close() : group !== undefined && void add.run({ groupId: group, target: target ?? { imeis } }))}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {description && <div>{description}</div>}
        {groupId === undefined && (
          <Select id="group-pick" style={{ width: '100%' }} placeholder={t('pickGroup')} value={picked} onChange={setPicked}
            showSearch optionFilterProp="label" options={(groups ?? []).map((g) => ({ value: g.id, label: g.name }))} />
        )}
        {target === undefined && (
          <Input.TextArea id="group-imeis" rows={6} value={text} onChange={(event) => setText(event.target.value)} placeholder={t('imeisPlaceholder')} />
        )}
        {target === undefined && imeis.length > 0 && <div>{t('imeiCount', { count: imeis.length })}</div>}
        {result?.unknown && <Alert type="warning" showIcon className="group-unknown-imeis" message={result.summary} description={result.unknown} />}
      </Space>
    </Modal>
  );
}
