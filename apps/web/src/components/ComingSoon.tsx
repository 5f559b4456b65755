/**
 * Honest empty state for routes whose page arrives in a later release, with a way back to the console
 * (full-screen routes such as /Datavisualization have no menu to leave by).
 */
import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** "This page arrives in a later release" in the current language, and a link home. */
export default function ComingSoon() {
  const { t } = useTranslation();
  return (
    <div className="page-empty">
      <Empty description={<><div className="page-empty-title">{t('comingSoon')}</div><div>{t('comingSoonDetail')}</div></>}>
        <Link to="/"><Button type="primary">{t('backHome')}</Button></Link>
      </Empty>
    </div>
  );
}
