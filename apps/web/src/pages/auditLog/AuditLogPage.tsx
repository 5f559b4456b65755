/**
 * 系统日志: the tenant's sign-ins, sign-outs and changes (GET /iot/v1/SysOperateLog/getLogList),
 * newest first or sorted on the server, filtered by keyword, action, result and time range (ISO 8601
 * startTime/endTime), and exported as CSV or Excel with the same filters and order
 * (GET /iot/v1/SysOperateLog/export: action names, results and times as on screen). Action names come
 * from the contract (auditActionText: each changing endpoint's `action` label, with the sub-action of
 * credential calls).
 */
import {
  apiEndpoints, auditActionKey, auditActionText, auditChangesText, auditDetailText, auditLabel, ERRORS, type ErrorCode, type Language, SESSION_ACTIONS, auditLogEndpoints,
  type AuditLogRecord,
} from '@iot/contract';
import { AutoComplete, DatePicker, Form, Input, Select, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../hooks/useSession';
import { DASH, formatTime } from '../../components/logColumns';
import { logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';

const SUCCESS = 'success';
/** Actions offered in the filter: sign-in/out and every logged change of the contract (any other may be typed). */
const KNOWN_ACTIONS = [...Object.keys(SESSION_ACTIONS), ...apiEndpoints.filter((endpoint) => endpoint.action).map(auditActionKey)];
const CODES = Object.keys(ERRORS) as ErrorCode[];

/** The system log page. */
export default function AuditLogPage() {
  const { t } = useTranslation('auditLog');
  const language = useLanguage();
  const actionLabel = (action: string) => auditLabel(action)?.[language] ?? action;

  const columns = useMemo<TableColumnsType<AuditLogRecord>>(() => [
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime, sorter: true },
    { title: t('username'), dataIndex: 'username', sorter: true },
    {
      title: t('action'), dataIndex: 'action', sorter: true,
      render: (action: string, row) => {
        const text = auditActionText(action, row.detail, language);
        return text === action ? action : <ActionCell label={text} raw={action} />;
      },
    },
    {
      title: t('target'), dataIndex: 'target', width: 180, ellipsis: false,
      render: (target: string, row) => (row.targetName
        ? <span className="system-log-target">{row.targetName}<Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>#{target}</Typography.Text></span>
        : target || DASH),
    },
    {
      title: t('result'), dataIndex: 'result', sorter: true,
      render: (result: string) => (result === SUCCESS
        ? <Tag color="success">{t('success')}</Tag>
        : <Tooltip title={result in ERRORS ? ERRORS[result as ErrorCode].message[language] : undefined}><Tag color="error">{result}</Tag></Tooltip>),
    },
    { title: t('clientIp'), dataIndex: 'clientIp' },
    {
      title: t('detail'), key: 'detail',
      render: (_: unknown, row) => {
        const lines = detailLines(row, language);
        return lines.length ? <div className="system-log-detail">{lines.map((line) => <div key={line}>{line}</div>)}</div> : DASH;
      },
    },
  ], [t, language]);

  const filters = (
    <>
      <Form.Item name="range" label={t('timeRange')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="keyword" htmlFor="system-log-keyword" label={t('keyword')}>
        <Input id="system-log-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="action" htmlFor="system-log-action" label={t('action')}>
        <AutoComplete
          id="system-log-action"
          allowClear
          style={{ width: 240 }}
          placeholder={t('actionPlaceholder')}
          options={KNOWN_ACTIONS.map((action) => ({ value: action, label: actionLabel(action) }))}
          showSearch={{ filterOption: (input, option) => `${option?.value} ${option?.label}`.toLowerCase().includes(input.toLowerCase()) }}
        />
      </Form.Item>
      <Form.Item name="result" label={t('result')}>
        <Select
          style={{ width: 200 }}
          popupMatchSelectWidth={false}
          options={[
            { value: 'all', label: t('common:all') },
            { value: SUCCESS, label: t('success') },
            ...CODES.map((code) => ({ value: code, label: `${code} · ${ERRORS[code].message[language]}` })),
          ]}
        />
      </Form.Item>
    </>
  );
  return (
    <ServerTable<AuditLogRecord>
      defaultSort={{ field: 'createdAt' }}
      endpoint={auditLogEndpoints.list}
      exportEndpoint={auditLogEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={filters}
      initialFilters={{ result: 'all' }}
      toQuery={logQuery}
    />
  );
}

/**
 * What the change did, in words: an edit's changed fields (before → after), then the recorded request
 * fields, leaving out what the action and target columns already say.
 */
function detailLines(row: AuditLogRecord, language: Language): string[] {
  const skip = row.targetName ? ['action', 'id', 'lockId', 'imei', 'accountId', 'groupId', 'productId', 'packageId'] : ['action'];
  return [...auditChangesText(row.changes, language, formatTime), ...auditDetailText(row.detail, language, skip, formatTime)];
}

/** A localized action with its raw `METHOD path` underneath. */
function ActionCell({ label, raw }: { label: string; raw: string }) {
  return (
    <span className="system-log-action">
      {label}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>{raw}</Typography.Text>
    </span>
  );
}
