/**
 * CSV / Excel export buttons of a log list: download with the list's current filters (api/download.ts);
 * the server writes the times in the data centre's zone (Excel: date cells).
 */
import { type Endpoint, LOG_EXPORT_MAX } from '@iot/contract';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../api/download';
import { notifyWarning } from '../api/notify';

export interface ExportButtonsProps {
  /** An export endpoint taking the list's filters plus `format`. */
  endpoint: Endpoint;
  /** The list's current filters (no paging). */
  query: object;
  /** Formats offered (default both). */
  formats?: readonly ExportFormat[];
}

export type ExportFormat = 'csv' | 'xlsx';

/** Two buttons: export CSV, export Excel. */
export function ExportButtons({ endpoint, query, formats = ['csv', 'xlsx'] }: ExportButtonsProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string>();
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      // Times in the data centre's zone: the server's default, so no zone is sent.
      const result = await downloadFile(endpoint, { ...query, format });
      if (result?.truncated) notifyWarning(t('exportTruncated', { max: LOG_EXPORT_MAX }), 'export-truncated');
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Space>
      {formats.includes('csv') && <Button icon={<DownloadOutlined />} loading={busy === 'csv'} onClick={() => void run('csv')}>{t('exportCsv')}</Button>}
      {formats.includes('xlsx') && <Button icon={<DownloadOutlined />} loading={busy === 'xlsx'} onClick={() => void run('xlsx')}>{t('exportExcel')}</Button>}
    </Space>
  );
}
