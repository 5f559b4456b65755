/**
 * A new rollout (POST /iot/v1/firmware/rollout/add): package, target (every lock of the type, a lock
 * group picked with the shared GroupSelect, or an IMEI list), gray share, from-versions, gates (battery, signal, a
 * local time window in the browser's time zone), canary, automatic pause and retries (contract
 * ROLLOUT_DEFAULTS). The rollout is created CREATED; it is started from its view.
 */
import { firmwareEndpoints, formatVersion, ROLLOUT_DEFAULTS, type RolloutInput, type RolloutTarget } from '@iot/contract';
import { Col, Form, Input, InputNumber, Modal, Radio, Row, Select, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { GroupSelect } from '../../components/GroupSelect';
import { maxChars, numberRange } from '../../components/formRules';
import { getTimeZone } from '../../lib/timeZone';

type Values = Omit<RolloutInput, 'target' | 'window' | 'fromVersions'> & { kind: RolloutTarget['kind']; groupId?: number; imeis?: string; fromVersions?: string[]; window?: [Dayjs, Dayjs] | null };

/** The dialog; `packageId` preselects a package; `onCreated` gets the new rollout's id. */
export function RolloutModal({ open, packageId, onClose, onCreated }: { open: boolean; packageId?: number; onClose(): void; onCreated(id: number): void }) {
  const { t } = useTranslation('firmware');
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const { data } = useApiQuery(firmwareEndpoints.packages, { size: 500 }, { enabled: open });
  useEffect(() => {
    if (open) form.setFieldsValue({ packageId, kind: 'imeis', ...ROLLOUT_DEFAULTS });
  }, [open, packageId, form]);
  const create = useApiMutation({
    form,
    mutationFn: (body: RolloutInput) => call(firmwareEndpoints.addRollout, { body }),
    success: (result) => t('created', { locks: result.locks, skipped: result.skipped }),
    invalidate: [firmwareEndpoints.rollouts, firmwareEndpoints.packages],
    onSuccess: (result) => {
      form.resetFields();
      onCreated(result.id);
    },
  });
  function submit({ kind: targetKind, groupId, imeis, window, fromVersions, ...rest }: Values) {
    const list = (imeis ?? '').split(/[\s,，;；]+/).filter(Boolean);
    const target: RolloutTarget = targetKind === 'imeis' ? { kind: 'imeis', imeis: list }
      : targetKind === 'group' && groupId !== undefined ? { kind: 'group', groupId } : { kind: 'type' };
    void create.run({
      ...rest, timeZone: getTimeZone(), fromVersions: fromVersions ?? [], target,
      window: window ? { start: window[0].format('HH:mm'), end: window[1].format('HH:mm') } : null,
    });
  }
  const number = (name: keyof Values, label: string, min: number, max: number) => (
    <Col span={8}><Form.Item name={name} label={t(label)} rules={[{ required: true }, ...numberRange(min, max)]}><InputNumber id={`rollout-${name}`} style={{ width: '100%' }} /></Form.Item></Col>
  );
  return (
    <Modal open={open} title={t('newRollout')} width={720} okText={t('ok')} cancelText={t('cancelAction')} onCancel={onClose} destroyOnHidden
      okButtonProps={{ id: 'rollout-submit', loading: create.isPending }} onOk={() => form.submit()}>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item htmlFor="rollout-package" name="packageId" label={t('package')} rules={[{ required: true }]}>
              <Select id="rollout-package" options={(data?.records ?? []).map((p) => ({ value: p.id, label: `${p.model} · ${formatVersion(p.version)}` }))} />
            </Form.Item>
          </Col>
          <Col span={12}><Form.Item htmlFor="rollout-name" name="name" label={t('rolloutName')} rules={[maxChars(64)]}><Input id="rollout-name" /></Form.Item></Col>
        </Row>
        <Form.Item htmlFor="rollout-kind" name="kind" label={t('target')}>
          <Radio.Group id="rollout-kind" options={[{ value: 'imeis', label: t('targets.imeis') }, { value: 'group', label: t('targets.group') }, { value: 'type', label: t('targets.type') }]} />
        </Form.Item>
        {kind === 'group' && (
          <Form.Item htmlFor="rollout-group" name="groupId" label={t('targets.group')} rules={[{ required: true }]}>
            <GroupSelect id="rollout-group" />
          </Form.Item>
        )}
        {kind === 'imeis' && (
          <Form.Item htmlFor="rollout-imeis" name="imeis" label={t('imeis')} extra={t('imeisHint')} rules={[{ required: true }]}>
            <Input.TextArea id="rollout-imeis" rows={3} />
          </Form.Item>
        )}
        <Row gutter={12}>
          {number('grayPercent', 'grayPercent', 1, 100)}
          <Col span={16}>
            <Form.Item htmlFor="rollout-from" name="fromVersions" label={t('fromVersions')} extra={t('fromVersionsHint')}>
              <Select id="rollout-from" mode="tags" tokenSeparators={[',', ' ']} />
            </Form.Item>
          </Col>
          {number('minBattery', 'minBattery', 0, 100)}
          {number('minRssi', 'minRssi', -150, 0)}
          <Col span={8}>
            <Form.Item htmlFor="rollout-window" name="window" label={t('window')} extra={t('windowHint', { zone: getTimeZone() })}>
              <TimePicker.RangePicker id="rollout-window" format="HH:mm" order={false} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          {number('canarySize', 'canarySize', 0, 10_000)}
          {number('failureThresholdPct', 'failureThresholdPct', 0, 100)}
          {number('minResults', 'minResults', 1, 10_000)}
          {number('maxRetries', 'maxRetries', 0, 10)}
          {number('lockTimeoutS', 'lockTimeoutS', 10, 604_800)}
        </Row>
      </Form>
    </Modal>
  );
}
