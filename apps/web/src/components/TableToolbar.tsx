/**
 * The list toolbar (ProTable-like): refresh, density and column settings, beside the page's own
 * actions and the export buttons. Column choices and density are kept per browser tab and page.
 */
import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type Density = 'large' | 'middle' | 'small';

export interface TableToolbarProps {
  onRefresh(): void;
  refreshing: boolean;
  density: Density;
  onDensity(density: Density): void;
  /** Every column (key + title) and which are hidden. */
  columns: { key: string; title: ReactNode }[];
  hidden: readonly string[];
  onHidden(hidden: string[]): void;
  /** Export buttons, batch actions, the page's main action. */
  children?: ReactNode;
}

/** Toolbar above a ServerTable. */
export function TableToolbar(props: TableToolbarProps) {
  const { t } = useTranslation();
  const { columns, hidden } = props;
  const settings = (
    <Space direction="vertical" size={4}>
      {columns.map((column) => (
        <Checkbox key={column.key} checked={!hidden.includes(column.key)}
          onChange={(event) => props.onHidden(event.target.checked ? hidden.filter((key) => key !== column.key) : [...hidden, column.key])}>
          {column.title}
        </Checkbox>
      ))}
      <Button size="small" type="link" onClick={() => props.onHidden([])}>{t('reset')}</Button>
    </Space>
  );
  return (
    <div className="table-toolbar">
      <Space wrap>{props.children}</Space>
      <Space className="table-toolbar-icons">
        <Tooltip title={t('refresh')}>
          <Button type="text" aria-label={t('refresh')} icon={<ReloadOutlined spin={props.refreshing} />} onClick={props.onRefresh} />
        </Tooltip>
        <Dropdown trigger={['click']} menu={{
          selectable: true, selectedKeys: [props.density],
          items: (['large', 'middle', 'small'] as const).map((key) => ({ key, label: t(`density.${key}`) })),
          onClick: ({ key }) => props.onDensity(key as Density),
        }}>
          <Tooltip title={t('density.title')}><Button type="text" aria-label={t('density.title')} icon={<ColumnHeightOutlined />} /></Tooltip>
        </Dropdown>
        <Popover trigger="click" placement="bottomRight" title={t('columnSettings')} content={settings}>
          <Tooltip title={t('columnSettings')}><Button type="text" aria-label={t('columnSettings')} icon={<SettingOutlined />} /></Tooltip>
        </Popover>
      </Space>
    </div>
  );
}
