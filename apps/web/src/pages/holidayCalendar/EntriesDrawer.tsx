/**
 * The entries of one holiday calendar: public holidays (with the locks' operating mode) and 调休 working
 * days (run as a given weekday); add, edit, delete, import a CSV / Excel file (its template in two
 * formats; a file with a bad row writes nothing and lists the rows). Changes reach the locks when the
 * calendar is applied.
 */
import { type HolidayCalendarRecord, type HolidayEntryRecord, holidayCalendarEndpoints, OPERATING_MODE_LABELS, WEEK_DAY_LABELS } from '@iot/contract';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Popconfirm, Space, Table, type TableColumnsType, Tag, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { downloadFile } from '../../api/download';
import { uploadWithProgress } from '../../api/uploadForm';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useLanguage } from '../../hooks/useSession';
import { useOperation } from '../../components/credential/shared';
import { EntryModal } from './EntryModal';

type Problems = { row: number; column: string; reason: Record<string, string> }[];

/** The drawer of `calendar` (closed when undefined). */
export function EntriesDrawer({ calendar, onClose }: { calendar?: HolidayCalendarRecord; onClose(): void }) {
  const { t } = useTranslation('holidayCalendar');
  const language = useLanguage();
  const [editing, setEditing] = useState<{ entry?: HolidayEntryRecord }>();
  const [problems, setProblems] = useState<Problems>([]);
  const invalidate = useInvalidate(holidayCalendarEndpoints.entries, holidayCalendarEndpoints.list);
  const operate = useOperation(holidayCalendarEndpoints.entries, holidayCalendarEndpoints.list);
  const { data } = useApiQuery(holidayCalendarEndpoints.entries, { calendarId: calendar?.id ?? 0 }, { enabled: calendar !== undefined });
  const columns = useMemo<TableColumnsType<HolidayEntryRecord>>(() => [
    { title: t('entryName'), dataIndex: 'name' },
    { title: t('entryKind'), dataIndex: 'kind', render: (k: HolidayEntryRecord['kind']) => <Tag color={k === 'holiday' ? 'red' : 'blue'}>{t(`kinds.${k}`)}</Tag> },
    { title: t('dates'), key: 'dates', render: (_: unknown, r) => (r.startDate === r.endDate ? r.startDate : `${r.startDate} ~ ${r.endDate}`) },
    { title: t('effect'), key: 'effect', render: (_: unknown, r) => (r.kind === 'workday' && r.worksAs
      ? t('worksAsText', { day: WEEK_DAY_LABELS[r.worksAs][language] }) : OPERATING_MODE_LABELS[r.operatingMode][language]) },
    { title: t('actions'), key: 'actions', render: (_: unknown, r) => (
      <Space size="small">
        <Button type="link" size="small" onClick={() => setEditing({ entry: r })}>{t('edit')}</Button>
        <Popconfirm title={t('deleteEntryConfirm')} okText={t('ok')} cancelText={t('cancel')}
          onConfirm={() => operate(() => call(holidayCalendarEndpoints.entry, { body: { action: 'delete', id: r.id } }), t('saved'))}>
          <Button type="link" size="small" danger>{t('delete')}</Button>
        </Popconfirm>
      </Space>
    ) },
  ], [t, language, operate]);
  const upload = async (file: File) => {
    if (!calendar) return false;
    const form = new FormData();
    form.append('calendarId', String(calendar.id));
    form.append('file', file, file.name);
    const result = await uploadWithProgress(holidayCalendarEndpoints.import, form, () => {}).catch(() => undefined);
    if (result) {
      setProblems(result.problems);
      await invalidate();
    }
    return false;
  };
  return (
    <Drawer open={calendar !== undefined} onClose={() => { setProblems([]); onClose(); }} size="large" title={t('entriesOf', { name: calendar?.name ?? '' })} destroyOnHidden className="entries-drawer">
      <Space wrap style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>{t('addEntry')}</Button>
        <Upload accept=".csv,.xlsx" showUploadList={false} beforeUpload={(file) => upload(file)}><Button icon={<UploadOutlined />}>{t('import')}</Button></Upload>
        <span>{t('template')}</span>
        <Button size="small" onClick={() => void downloadFile(holidayCalendarEndpoints.importTemplate, { format: 'xlsx' })}>Excel (.xlsx)</Button>
        <Button size="small" onClick={() => void downloadFile(holidayCalendarEndpoints.importTemplate, { format: 'csv' })}>CSV</Button>
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('entriesHint')} />
      {problems.length > 0 && (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} className="import-problems" title={t('importRefused')}
          description={problems.map((p) => t('problem', { row: p.row, reason: p.reason[language] })).join('；')} />
      )}
      <Table<HolidayEntryRecord> rowKey="id" size="small" columns={columns} dataSource={data ?? []} pagination={false} scroll={{ x: 'max-content' }} />
      {calendar && <EntryModal open={editing !== undefined} calendarId={calendar.id} entry={editing?.entry} onClose={() => setEditing(undefined)} />}
    </Drawer>
  );
}
