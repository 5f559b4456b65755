/** Honest empty state for routes whose page arrives in a later release. */
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';

/** "This page arrives in a later release" in the current language. */
export default function ComingSoon() {
  const { t } = useTranslation();
  return (
    <div className="page-empty">
      <Empty description={<><div className="page-empty-title">{t('comingSoon')}</div><div>{t('comingSoonDetail')}</div></>} />
    </div>
  );
}
