/**
 * The data centre's time zone in the header (one rule for the whole product, shown where
 * every page can see it): its name and UTC offset; holders of TENANT_SETTINGS (administrators) change it
 * from its popover. Every time on every page, the big screen and exports then follow it. The popover
 * also holds the data centre's default stay buffers (StayBufferDefaults, loaded when the popover first opens).
 */
import { ClockCircleOutlined } from '@ant-design/icons';
import { tenantEndpoints } from '@iot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Divider, Popover, Select, Space, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { getTimeZone, zoneOffset } from '../../lib/timeZone';
import { mayOpen, USER_INFO_KEY, useUserInfo } from '../../hooks/useSession';

/** The stay buffers' form (antd Form, InputNumber, Switch): loaded when the popover first opens, not with every page. */
const StayBufferDefaults = lazy(() => import('./StayBufferDefaults').then((module) => ({ default: module.StayBufferDefaults })));

/** Every IANA zone this browser knows (the server checks the same names). */
const ZONES: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Shanghai', 'UTC'];

/** The header's time-zone button. */
export function TimeZoneSetting() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: info } = useUserInfo();
  const [open, setOpen] = useState(false);
  const zone = info?.timeZone ?? getTimeZone();
  const [chosen, setChosen] = useState<string>();
  const save = useApiMutation({
    mutationFn: (timeZone: string) => call(tenantEndpoints.saveSettings, { body: { timeZone } }),
    success: t('timeZoneSaved'),
    onSuccess: () => {
      setOpen(false);
      // The user info carries the zone: every page redraws its times in the new one.
      void client.invalidateQueries({ queryKey: USER_INFO_KEY });
      void client.invalidateQueries();
    },
  });
  const editable = info !== undefined && mayOpen(info, 'TENANT_SETTINGS');
  const content = (
    <Space direction="vertical" className="time-zone-popover">
      <Typography.Text type="secondary">{t('timeZoneHint')}</Typography.Text>
      {editable && (
        <Space.Compact block>
          <Select id="time-zone-select" showSearch value={chosen ?? zone} onChange={setChosen} style={{ width: 240 }}
            options={ZONES.map((name) => ({ value: name, label: name }))} />
          <Button type="primary" id="time-zone-save" loading={save.isPending} disabled={!chosen || chosen === zone}
            onClick={() => chosen && void save.run(chosen)}>{t('save')}</Button>
        </Space.Compact>
      )}
      <Divider style={{ margin: '4px 0' }} />
      <Suspense fallback={null}><StayBufferDefaults editable={editable} /></Suspense>
    </Space>
  );
  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} title={t('timeZone')} content={content} placement="bottomRight">
      <Button type="text" className="console-time-zone" data-time-zone={zone} icon={<ClockCircleOutlined />}>
        {zone} <span className="console-time-zone-offset">{zoneOffset()}</span>
      </Button>
    </Popover>
  );
}
