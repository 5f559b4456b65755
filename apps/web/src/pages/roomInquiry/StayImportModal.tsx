/**
 * 导入预订 / Import bookings, from the stays drawer of 产品 RoomInquiry: the template in both
 * formats, a dry run of the chosen .xlsx / .csv (POST /iot/v1/stay/importCheck, writes nothing) listing
 * every row with its status and problems in the current language, then 确认导入 / Import (POST
 * /iot/v1/stay/import), enabled only when the dry run found no problem: every stay booked, or none.
 */
import { STAY_IMPORT_HEADERS, type StayImportCheck, type StayImportRow, stayEndpoints } from '@iot/contract';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Table, type TableColumnsType, Tag, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/download';
import { uploadFile } from '../../api/upload';
import { useInvalidate } from '../../api/useInvalidate';
import { useMessage } from '../../components/appMessage';
import { useLanguage } from '../../hooks/useSession';

/** The booking import dialog. */
export function StayImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('stay');
  const language = useLanguage();
  const invalidate = useInvalidate(stayEndpoints.list);
  const message = useMessage();
  const [file, setFile] = useState<File>();
  const [check, setCheck] = useState<StayImportCheck>();
  const [busy, setBusy] = useState<'checking' | 'importing'>();
  const reset = () => { setFile(undefined); setCheck(undefined); setBusy(undefined); };
  const close = () => { reset(); onClose(); };

  const run = async (phase: 'checking' | 'importing') => {
    if (!file) return;
    setBusy(phase);
    try {
      const endpoint = phase === 'checking' ? stayEndpoints.importCheck : stayEndpoints.import;
      const answer = await uploadFile(endpoint, file, file.name, () => {});
      if (phase === 'checking') setCheck(answer.data as StayImportCheck);
      else {
        const done = answer.data as { stays: number; guests: number };
        message.success(t('importDone', { count: done.stays, guests: done.guests }));
        void invalidate();
        close();
      }
    } catch {
      // The upload helper showed why.
    } finally {
      setBusy(undefined);
    }
  };

  const columns: TableColumnsType<StayImportRow> = [
    { title: t('importRow'), dataIndex: 'row', width: 70 },
    { title: t('importStatus'), dataIndex: 'ok', width: 90, render: (ok: boolean) => <Tag color={ok ? 'green' : 'red'}>{t(ok ? 'importOk' : 'importBad')}</Tag> },
    {
      title: t('importErrors'), dataIndex: 'errors',
      render: (errors: StayImportRow['errors']) => errors.map((error) => <div key={`${error.column}-${error.reason['en-US']}`}>{`${STAY_IMPORT_HEADERS[error.column][language]}: ${error.reason[language]}`}</div>),
    },
  ];
  const clean = check !== undefined && check.invalid === 0 && check.stays > 0;
  return (
    <Modal open={open} title={t('importTitle')} width={800} onCancel={close} destroyOnHidden maskClosable={!busy} className="stay-import"
      footer={(
        <Space>
          <Button onClick={close} disabled={busy !== undefined}>{t('close')}</Button>
          <Button id="stay-import-check" onClick={() => void run('checking')} disabled={!file} loading={busy === 'checking'}>{t('importCheck')}</Button>
          <Button id="stay-import-commit" type="primary" onClick={() => void run('importing')} disabled={!clean} loading={busy === 'importing'}>
            {t('importCommit', { count: check?.stays ?? 0 })}
          </Button>
        </Space>
      )}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <span>{t('importTemplate')}</span>
          <Button size="small" onClick={() => void downloadFile(stayEndpoints.importTemplate, { format: 'xlsx' })}>Excel (.xlsx)</Button>
          <Button size="small" onClick={() => void downloadFile(stayEndpoints.importTemplate, { format: 'csv' })}>CSV</Button>
        </Space>
        <Alert type="info" showIcon title={t('importRules')} />
        <Upload.Dragger accept=".xlsx,.csv" maxCount={1} showUploadList={file ? { showRemoveIcon: !busy } : false} fileList={file ? [{ uid: 'file', name: file.name }] : []}
          beforeUpload={(chosen) => { setFile(chosen); setCheck(undefined); return false; }} onRemove={() => reset()}>
          <p className="ant-upload-drag-icon"><InboxOutlined /></p>
          <p>{t('importPick')}</p>
          <p className="ant-upload-hint">{t('importHint')}</p>
        </Upload.Dragger>
        {check && (
          <>
            <Alert type={check.invalid ? 'warning' : 'success'} showIcon className="stay-import-summary"
              title={t(check.invalid ? 'importSummaryBad' : 'importSummaryClean', { rows: check.rows, bad: check.invalid, stays: check.stays })} />
            <Table<StayImportRow> className="stay-import-rows" size="small" rowKey="row" columns={columns} dataSource={check.results}
              pagination={{ pageSize: 8, showSizeChanger: false }} />
          </>
        )}
      </Space>
    </Modal>
  );
}
