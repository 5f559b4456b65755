/**
 * The embedded demo receiver's switch (DEMO=on only; the card hides itself when the server has no demo
 * receiver): stop it and retries pile up in the log, start it and the backlog drains.
 */
import { subscriptionEndpoints, demoReceiverEndpoints as demo } from '@iot/contract';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useMayCall } from '../../hooks/mayCall';

/** The card. */
export function DemoReceiver() {
  const { t } = useTranslation('subscription');
  const state = useApiQuery(demo.state, undefined, { refetchInterval: 5000 });
  const mayToggle = useMayCall(demo.set); // one receiver for every data centre: platform administrators only
  const toggle = useApiMutation({
    mutationFn: (running: boolean) => call(demo.set, { body: { running } }), invalidate: [demo.state, subscriptionEndpoints.customerCodes],
  });
  if (!state.data) return null;
  const { running, received, url } = state.data;
  return (
    <Alert
      type={running ? 'success' : 'warning'}
      showIcon
      message={<Space wrap>{t(running ? 'demo.running' : 'demo.stopped', { received })}
        {mayToggle && <Button size="small" loading={toggle.isPending} danger={running} onClick={() => void toggle.run(!running)} data-testid="demo-receiver-toggle">{t(running ? 'demo.stop' : 'demo.start')}</Button>}</Space>}
      description={<Typography.Text type="secondary">{t('demo.url')} <Typography.Text code copyable>{url}</Typography.Text></Typography.Text>}
    />
  );
}
