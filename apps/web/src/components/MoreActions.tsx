/**
 * A row's less frequent actions folded into one "更多" link with a menu (ProTable's TableDropdown), so a
 * pinned actions column stays narrow and covers little of the table. An item with `confirm` asks
 * first in a confirmation dialog (OK in red for a `danger` item).
 */
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

export interface MoreAction {
  key: string;
  label: string;
  danger?: boolean;
  /** The question asked before `run`. */
  confirm?: string;
  run(): unknown;
}

/** The "更多" menu of `items`. */
export function MoreActions({ items }: { items: readonly MoreAction[] }) {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const choose = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (!item) return;
    if (!item.confirm) return void item.run();
    modal.confirm({ title: item.confirm, okButtonProps: { danger: item.danger }, onOk: () => item.run() });
  };
  return (
    <>
      {modalHolder}
      <Dropdown trigger={['click']} menu={{ items: items.map(({ key, label, danger }) => ({ key, label, danger })), onClick: ({ key }) => choose(key) }}>
      <Button type="link" size="small" className="more-actions">{t('moreActions')} <DownOutlined /></Button>
      </Dropdown>
    </>
  );
}
