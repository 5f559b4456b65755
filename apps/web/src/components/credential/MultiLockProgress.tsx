/**
 * Per-lock progress of an operation on many locks (offboarding a person, reporting a card lost): each
 * lock with its commands' live states (POST /iot/v1/operateUser/commandStates, polled every second in
 * the background until every command is final) or the lock's refusal.
 */
import { credentialEndpoints, protocol, type ResponseOf } from '@iot/contract';
import { Alert, List, Progress, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { StateBadge } from '../CommandTags';

export type Locks = ResponseOf<typeof credentialEndpoints.offboard>['locks'];
const POLL_MS = 1000;
const isFinal = (state: protocol.CommandState) => (protocol.FINAL_COMMAND_STATES as readonly string[]).includes(state);

/** The locks of a multi-lock operation and their commands, refreshed until all are final. */
export function MultiLockProgress({ locks }: { locks: Locks }) {
  const { t } = useTranslation('credential');
  const ids = locks.flatMap((lock) => lock.commands.map((c) => c.commandId));
  const { data } = useQuery({
    queryKey: ['credential-command-states', ids],
    queryFn: () => call(credentialEndpoints.commandStates, { body: { commandIds: ids.slice(0, 500) }, background: true }),
    enabled: ids.length > 0,
    refetchInterval: (query) => (query.state.data?.every((c) => isFinal(c.state)) ? false : POLL_MS),
  });
  const stateOf = new Map(locks.flatMap((l) => l.commands.map((c) => [c.commandId, c.state] as const)));
  for (const c of data ?? []) stateOf.set(c.commandId, c.state);
  const done = ids.filter((id) => isFinal(stateOf.get(id) ?? 'QUEUED')).length;
  if (locks.length === 0) return <Alert type="info" showIcon title={t('offboardNothing')} />;
  return (
    <div className="multi-lock-progress">
      <Space style={{ width: '100%', marginBottom: 12 }} orientation="vertical">
        <Typography.Text data-done={String(done === ids.length)}>{done === ids.length ? t('offboardDone') : t('offboardProgress', { done, total: ids.length })}</Typography.Text>
        <Progress percent={ids.length ? Math.round((done / ids.length) * 100) : 100} status={done === ids.length ? 'success' : 'active'} />
      </Space>
      <List
        size="small"
        bordered
        dataSource={locks}
        renderItem={(lock) => (
          <List.Item>
            <Space wrap>
              <Typography.Text strong>{lock.lockName}</Typography.Text>
              <Typography.Text type="secondary">{lock.imei}</Typography.Text>
              {lock.error && <Typography.Text type="danger">{t('lockRefused', { error: lock.error })}</Typography.Text>}
              {lock.commands.map((c) => (
                <Space key={c.commandId} size={4}>
                  <span>{t(`subjects.${c.subject}`)}</span>
                  <StateBadge state={stateOf.get(c.commandId) ?? c.state} />
                </Space>
              ))}
            </Space>
          </List.Item>
        )}
      />
    </div>
  );
}
