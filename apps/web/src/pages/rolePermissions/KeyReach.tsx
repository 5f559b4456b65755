/**
 * Beside each page of the role editor's tree: how many screens and changes its key opens, and on hover
 * which ones (contract authorityReach: the route and endpoint tables), so the person editing a role
 * sees what a checkbox grants.
 */
import { listText } from '@iot/contract';
import type { TreeDataNode } from 'antd';
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../hooks/useSession';
import { reachOf } from './authorityTree';

/** A tree node's title with what its key opens (leaves only). */
export function KeyReach({ node }: { node: TreeDataNode }) {
  const { t } = useTranslation('role');
  const language = useLanguage();
  const title = node.title as ReactNode;
  const reach = node.children?.length ? undefined : reachOf(node.key);
  if (!reach || (reach.pages.length === 0 && reach.changes.length === 0)) return <span>{title}</span>;
  const detail = (
    <div className="key-reach-detail">
      {reach.pages.length > 0 && <div>{t('reachPages')}: {listText(reach.pages.map((page) => page[language]), language)}</div>}
      {reach.changes.length > 0 && <div>{t('reachChanges')}: {listText(reach.changes.map((change) => change[language]), language)}</div>}
      {reach.sharedReads > 0 && <div>{t('reachLookups', { count: reach.sharedReads })}</div>}
    </div>
  );
  return (
    <Tooltip title={detail} placement="right">
      {/* The summary is drawn by CSS (styles.css .key-reach::after): the node's text stays its title. */}
      <span className="key-reach" data-key={String(node.key)} data-reach={t('reachSummary', { pages: reach.pages.length, changes: reach.changes.length })}>
        {title}
      </span>
    </Tooltip>
  );
}
