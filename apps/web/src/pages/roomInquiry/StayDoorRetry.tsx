/**
 * 重试 / Retry of a stay's failed door (a row action of 门锁 / Doors, StayDoorsModal),
 * confirmed first: the door's failed lock user, then its failed password and card, are sent again through the
 * credential service's retry routes (POST /iot/v1/operateUser/retry, /iot/v1/operatePassword/retry and
 * /iot/v1/operateCard/retry with the door's lockUserId / credentialId / cardCredentialId), as 用户管理 / 密码管理 / 门卡管理 do. The detail is refetched, so
 * the row turns 添加中; the stays job follows once the lock confirms.
 */
import { credentialEndpoints, type StayDetail, stayEndpoints } from '@iot/contract';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

type Door = StayDetail['doors'][number];
const failed = (state: Door['userState']) => state?.endsWith('_failed') ?? false;

/** The Retry button of `door`; nothing when none of its user, password and card failed. */
export function StayDoorRetry({ door }: { door: Door }) {
  const { t } = useTranslation(['stay', 'credential']);
  const retry = useApiMutation({
    mutationFn: async () => {
      // The user first: its password needs the user on the lock, and the lock takes commands in order.
      if (failed(door.userState) && door.lockUserId !== null) await call(credentialEndpoints.user.retry, { body: { id: door.lockUserId } });
      if (failed(door.credentialState) && door.credentialId !== null) await call(credentialEndpoints.password.retry, { body: { id: door.credentialId } });
      if (failed(door.cardState) && door.cardCredentialId !== null) await call(credentialEndpoints.card.retry, { body: { id: door.cardCredentialId } });
    },
    invalidate: [stayEndpoints.detail, stayEndpoints.list, stayEndpoints.notReady], success: t('credential:retryDone'),
  });
  if (!failed(door.userState) && !failed(door.credentialState) && !failed(door.cardState)) return null;
  return (
    <Popconfirm title={t('stay:doorRetryConfirm')} onConfirm={() => retry.run()}>
      <Button size="small" type="link" className="stay-door-retry" loading={retry.isPending}>{t('credential:retry')}</Button>
    </Popconfirm>
  );
}
