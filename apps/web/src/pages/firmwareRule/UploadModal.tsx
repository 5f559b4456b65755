/**
 * Upload of a firmware package (POST /iot/v1/firmware/upload, multipart): device type, semantic
 * version, release notes in both languages and the file (at most 8 MiB), with the upload's progress;
 * the server's SHA-256 is shown when it is done.
 */
import { deviceTypeEndpoints, firmwareEndpoints, protocol } from '@iot/contract';
import { InboxOutlined } from '@ant-design/icons';
import { Form, Input, Modal, Progress, Select, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadWithProgress } from '../../api/uploadForm';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useMessage } from '../../app/appMessage';
import { maxChars } from '../../components/formRules';

interface Values { model: string; version: string; notesZh?: string; notesEn?: string; file: UploadFile[] }

/** The upload dialog; `onClose` after an upload or a cancel. */
export function UploadModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('firmware');
  const message = useMessage();
  const [form] = Form.useForm<Values>();
  const [percent, setPercent] = useState<number | undefined>();
  const invalidate = useInvalidate(firmwareEndpoints.packages);
  const { data: types = [] } = useApiQuery(deviceTypeEndpoints.options, undefined, { enabled: open });

  async function submit(values: Values) {
    const file = values.file[0]?.originFileObj;
    if (!file) return;
    const body = new FormData();
    body.append('model', values.model);
    body.append('version', values.version.trim());
    body.append('notesZh', values.notesZh ?? '');
    body.append('notesEn', values.notesEn ?? '');
    body.append('file', file, file.name);
    setPercent(0);
    try {
      const result = await uploadWithProgress(firmwareEndpoints.upload, body, setPercent);
      message.success(t('uploaded', { sha: result.sha256 }));
      form.resetFields();
      onClose();
    } catch {
      /* the toast says why */
    } finally {
      setPercent(undefined);
      void invalidate();
    }
  }

  return (
    <Modal open={open} title={t('upload')} okText={t('upload')} cancelText={t('cancelAction')} onCancel={onClose} destroyOnHidden
      okButtonProps={{ id: 'firmware-upload-submit', loading: percent !== undefined }} onOk={() => form.submit()}>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="model" label={t('model')} rules={[{ required: true }]}>
          <Select id="firmware-model" options={types.filter((type) => type.kind === 'lock').map((type) => ({ value: type.model, label: type.model }))} />
        </Form.Item>
        <Form.Item name="version" label={t('version')} rules={[{ required: true }, { pattern: /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, message: '1.2.3' }]}>
          <Input id="firmware-version" placeholder="2.1.0" />
        </Form.Item>
        <Form.Item name="notesZh" label={t('notesZh')} rules={[maxChars(2000)]}><Input.TextArea id="firmware-notes-zh" rows={2} /></Form.Item>
        <Form.Item name="notesEn" label={t('notesEn')} rules={[maxChars(2000)]}><Input.TextArea id="firmware-notes-en" rows={2} /></Form.Item>
        <Form.Item name="file" label={t('file')} valuePropName="fileList" getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList.slice(-1)}
          rules={[{ required: true }, { validator: async (_, list: UploadFile[] = []) => {
            if ((list[0]?.size ?? 0) > protocol.OTA_MAX_PACKAGE_BYTES) throw new Error(t('fileHint'));
          } }]}>
          <Upload.Dragger id="firmware-file" beforeUpload={() => false} maxCount={1}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p>{t('fileHint')}</p>
          </Upload.Dragger>
        </Form.Item>
        {percent !== undefined && <Progress percent={percent} format={(value) => t('uploading', { percent: value })} />}
      </Form>
    </Modal>
  );
}
