/**
 * 固件管理 firmwareRule: firmware packages (upload with progress, SHA-256, delete) and
 * rollouts (create, follow, control). The rollout view opens in a drawer (`?rollout=id` keeps it on reload).
 */
import { Tabs } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PackagesTab } from './PackagesTab';
import { RolloutDrawer } from './RolloutDrawer';
import { RolloutModal } from './RolloutModal';
import { RolloutsTab } from './RolloutsTab';

/** The firmware page. */
export default function FirmwareRulePage() {
  const { t } = useTranslation('firmware');
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState(params.get('rollout') ? 'rollouts' : 'packages');
  const [creating, setCreating] = useState<{ open: boolean; packageId?: number }>({ open: false });
  const opened = Number(params.get('rollout')) || undefined;
  const open = useCallback((id?: number) => setParams(id ? { rollout: String(id) } : {}, { replace: true }), [setParams]);
  const rolloutFor = useCallback((packageId: number) => setCreating({ open: true, packageId }), []);
  return (
    <>
      <Tabs activeKey={tab} onChange={setTab} items={[
        { key: 'packages', label: t('packagesTab'), children: <PackagesTab onRollout={rolloutFor} /> },
        { key: 'rollouts', label: t('rolloutsTab'), children: <RolloutsTab onOpen={open} onCreate={() => setCreating({ open: true })} /> },
      ]} />
      <RolloutModal open={creating.open} packageId={creating.packageId} onClose={() => setCreating({ open: false })}
        onCreated={(id) => { setCreating({ open: false }); setTab('rollouts'); open(id); }} />
      <RolloutDrawer id={opened} onClose={() => open(undefined)} />
    </>
  );
}
