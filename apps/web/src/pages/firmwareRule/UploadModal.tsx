/**
 * Upload of a firmware package (POST /iot/v1/firmware/upload, multipart): a vendor-signed ZGFW package
 * whose manifest fills in device type and version when chosen (packageFile.ts), release
 * notes in both languages, with the upload's progress; the server's SHA-256 and the signing key are shown
 * when it is done, its refusals (signature, format, manifest) under the fields they name.
 */
import { deviceTypeEndpoints, FIRMWARE_PACKAGE_EXTENSION, firmwareEndpoints, formatVersion, normaliseVersion, protocol } from '@iot/contract';
import { InboxOutlined } from '@ant-design/icons';
import { Form, Input, Modal, Progress, Select, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showFieldErrors } from '../../api/fieldErrors';
import { uploadWithProgress } from '../../api/uploadForm';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useMessage } from '../../components/appMessage';
import { useLanguage } from '../../hooks/useSession';
import { readPackageFile } from './packageFile';
import { maxChars } from '../../components/formRules';

interface Values { model: string; version: string; notesZh?: string; notesEn?: string; file: UploadFile[] }

/** The upload dialog; `onClose` after an upload or a cancel. */
export function UploadModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('firmware');
  const message = useMessage();
  const [form] = Form.useForm<Values>();
  const language = useLanguage();
  const [percent, setPercent] = useState<number | undefined>();
  const [signedBy, setSignedBy] = useState<string>();
  const invalidate = useInvalidate(firmwareEndpoints.packages);
  const { data: types = [] } = useApiQuery(deviceTypeEndpoints.options, undefined, { enabled: open });

  /** Model and version from the chosen package's manifest (the operator may still change them; the server compares). */
  async function prefill(file: Blob | undefined) {
    setSignedBy(undefined);
    if (!file) return;
    const read = await readPackageFile(file, language);
    if (!('manifest' in read)) return;
    setSignedBy(read.manifest.keyId);
    const known = types.some((type) => type.model === read.manifest.model);
    form.setFieldsValue({ ...(known ? { model: read.manifest.model } : {}), version: read.manifest.version });
  }

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
      const result = await uploadWithProgress(firmwareEndpoints.upload, body, setPercent, { quiet: true });
      message.success(t('uploaded', { sha: result.sha256, version: formatVersion(result.version), key: result.keyId }));
      form.resetFields();
      setSignedBy(undefined);
      onClose();
    } catch (error) {
      const rest = showFieldErrors(form, error, 'body.', language);
      if (rest) message.error(rest);
    } finally {
      setPercent(undefined);
      void invalidate();
    }
  }

  return (
    <Modal open={open} title={t('upload')} okText={t('upload')} cancelText={t('cancelAction')} onCancel={onClose} destroyOnHidden
      okButtonProps={{ id: 'firmware-upload-submit', loading: percent !== undefined }} onOk={() => form.submit()}>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item htmlFor="firmware-model" name="model" label={t('model')} rules={[{ required: true }]}>
          <Select id="firmware-model" options={types.filter((type) => type.kind === 'lock').map((type) => ({ value: type.model, label: type.model }))} />
        </Form.Item>
        <Form.Item htmlFor="firmware-version" name="version" label={t('version')} rules={[{ required: true }, { validator: async (_, value?: string) => {
          if (value && !normaliseVersion(value)) throw new Error(t('versionInvalid'));
        } }]}>
          <Input id="firmware-version" placeholder="2.1.0" />
        </Form.Item>
        <Form.Item htmlFor="firmware-notes-zh" name="notesZh" label={t('notesZh')} rules={[maxChars(2000)]}><Input.TextArea id="firmware-notes-zh" rows={2} /></Form.Item>
        <Form.Item htmlFor="firmware-notes-en" name="notesEn" label={t('notesEn')} rules={[maxChars(2000)]}><Input.TextArea id="firmware-notes-en" rows={2} /></Form.Item>
        <Form.Item htmlFor="firmware-file" name="file" label={t('file')} valuePropName="fileList" getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList.slice(-1)}
          extra={signedBy ? t('signedByKey', { key: signedBy }) : undefined}
          rules={[{ required: true }, { validator: async (_, list: UploadFile[] = []) => {
            const file = list[0]?.originFileObj;
            if ((list[0]?.size ?? 0) > protocol.OTA_MAX_PACKAGE_BYTES) throw new Error(t('fileHint'));
            if (!file) return;
            const read = await readPackageFile(file, language);
            if ('problem' in read) throw new Error(read.problem);
          } }]}>
          <Upload.Dragger id="firmware-file" accept={`${FIRMWARE_PACKAGE_EXTENSION},application/octet-stream`} beforeUpload={() => false} maxCount={1}
            onChange={({ fileList }) => void prefill(fileList.at(-1)?.originFileObj)}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p>{t('fileHint')}</p>
          </Upload.Dragger>
        </Form.Item>
        {percent !== undefined && <Progress percent={percent} format={(value) => t('uploading', { percent: value })} />}
      </Form>
    </Modal>
  );
}
