/**
 * Bulk import on 门锁信息: the template in both formats, then a dry run of the chosen .xlsx /
 * .csv (POST importCheck, upload progress shown) listing every bad row (row, column, reason), then the
 * commit of the valid rows (POST import): the new device secrets download once, as a CSV file.
 */
import { IMPORT_COUNT_HEADER, IMPORT_HEADERS, type ImportCheck, type ImportProblem, lockEndpoints } from '@iot/contract';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Progress, Space, Table, Upload } from 'antd';
import { useMessage } from '../../components/appMessage';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/download';
import { saveBlob, uploadFile } from '../../api/upload';
import { useInvalidate } from '../../api/useInvalidate';
import { useLanguage } from '../../hooks/useSession';

/** The import dialog. */
export function ImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('lock');
  const language = useLanguage();
  const invalidate = useInvalidate(lockEndpoints.list);
  const message = useMessage();
  const [file, setFile] = useState<File>();
  const [check, setCheck] = useState<ImportCheck>();
  const [progress, setProgress] = useState<{ percent: number; phase: 'checking' | 'importing' }>();
  const reset = () => { setFile(undefined); setCheck(undefined); setProgress(undefined); };

  const run = async (phase: 'checking' | 'importing') => {
    if (!file) return;
    setProgress({ percent: 0, phase });
    try {
      const endpoint = phase === 'checking' ? lockEndpoints.importCheck : lockEndpoints.import;
      const answer = await uploadFile(endpoint, file, file.name, (percent) => setProgress({ percent, phase }));
      if (phase === 'checking') setCheck(answer.data as ImportCheck);
      else if (answer.file) {
        saveBlob(answer.file.blob, answer.file.name);
        message.success(t('importDone', { count: Number(answer.header(IMPORT_COUNT_HEADER) ?? 0) }));
        void invalidate();
        reset();
        onClose();
      }
    } catch {
      // The upload helper showed why.
    } finally {
      setProgress(undefined);
    }
  };

  const columns = [
    { title: t('importRow'), dataIndex: 'row', width: 80 },
    { title: t('importColumn'), dataIndex: 'column', width: 160, render: (column: ImportProblem['column']) => IMPORT_HEADERS[column][language] },
    { title: t('importReason'), dataIndex: 'reason', render: (reason: ImportProblem['reason']) => reason[language] },
  ];
  const busy = progress !== undefined;
  return (
    <Modal open={open} title={t('importTitle')} width={760} onCancel={() => { reset(); onClose(); }} destroyOnHidden maskClosable={!busy}
      footer={(
        <Space>
          <Button onClick={() => { reset(); onClose(); }} disabled={busy}>{t('cancel')}</Button>
          <Button id="import-check" onClick={() => void run('checking')} disabled={!file || busy}>{t('importCheck')}</Button>
          <Button id="import-commit" type="primary" onClick={() => void run('importing')} disabled={!check || check.valid === 0 || busy}>
            {t('importCommit', { count: check?.valid ?? 0 })}
          </Button>
        </Space>
      )}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <span>{t('importTemplate')}</span>
          <Button size="small" onClick={() => void downloadFile(lockEndpoints.importTemplate, { format: 'xlsx' })}>Excel (.xlsx)</Button>
          <Button size="small" onClick={() => void downloadFile(lockEndpoints.importTemplate, { format: 'csv' })}>CSV</Button>
        </Space>
        <Upload.Dragger accept=".xlsx,.csv" maxCount={1} showUploadList={file ? { showRemoveIcon: !busy } : false} fileList={file ? [{ uid: 'file', name: file.name }] : []}
          beforeUpload={(chosen) => { setFile(chosen); setCheck(undefined); return false; }} onRemove={() => reset()}>
          <p className="ant-upload-drag-icon"><InboxOutlined /></p>
          <p>{t('importPick')}</p>
          <p className="ant-upload-hint">{t('importHint')}</p>
        </Upload.Dragger>
        {progress && <Progress percent={progress.percent} status="active" format={() => (progress.percent < 100 ? `${progress.percent}%` : t(`import.${progress.phase}`))} />}
        {check && (
          <>
            <Alert type={check.problems.length ? 'warning' : 'success'} showIcon className="import-summary"
              title={t('importSummary', { rows: check.rows, valid: check.valid, bad: check.rows - check.valid })} />
            {check.problems.length > 0 && (
              <Table<ImportProblem> className="import-problems" size="small" rowKey={(p) => `${p.row}-${p.column}-${p.reason['en-US']}`}
                columns={columns} dataSource={check.problems} pagination={{ pageSize: 8, showSizeChanger: false }} />
            )}
            <Alert type="info" showIcon title={t('importSecrets')} />
          </>
        )}
      </Space>
    </Modal>
  );
}
