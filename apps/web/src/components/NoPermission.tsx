/** The 403 result shown on a page the user lacks the authority for. */
import { Button } from 'antd';
import { Result } from './LazyResult';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** antd Result 403 "no permission" with a way back home. */
export function NoPermission() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="403"
      subTitle={t('noPermission')}
      extra={<Button type="primary" onClick={() => navigate('/')}>{t('backHome')}</Button>}
    />
  );
}
