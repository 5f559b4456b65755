/**
 * 空开分析 airSwitchAnalysis (AIRSWITCH_RULE): the data centre's air switches with their
 * circuits' live readings and remote on/off (SwitchList), a switch's details, thresholds and commands
 * (SwitchDrawer), energy analysis with exportable charts (EnergyPanel) and the switches' alarms
 * (AlertsPanel).
 */
import { Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertsPanel } from './AlertsPanel';
import { EnergyPanel } from './EnergyPanel';
import { SwitchDrawer } from './SwitchDrawer';
import { SwitchList } from './SwitchList';

/** The page: three tabs and the detail drawer. */
export default function AirSwitchAnalysisPage() {
  const { t } = useTranslation('airSwitch');
  const [detailId, setDetailId] = useState<number | undefined>();
  const items = [
    { key: 'switches', label: t('tabs.switches'), children: <SwitchList onDetail={setDetailId} /> },
    { key: 'energy', label: t('tabs.energy'), children: <EnergyPanel /> },
    { key: 'alerts', label: t('tabs.alerts'), children: <AlertsPanel /> },
  ];
  return (
    <>
      <Tabs items={items} destroyOnHidden />
      <SwitchDrawer id={detailId} onClose={() => setDetailId(undefined)} />
    </>
  );
}
