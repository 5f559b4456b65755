/**
 * One switch's circuits with their live readings and the remote on/off button. Switching asks for
 * confirmation first (it cuts or restores power), then queues the command (POST /iot/v1/airSwitch/switch);
 * the readings show the result at the next poll.
 */
import { type AirSwitchRecord, airSwitchEndpoints, type CircuitRecord } from '@iot/contract';
import { Badge, Button, Modal, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { reading } from './format';

const STATUS = { on: 'success', off: 'default', tripped: 'error' } as const;

/** The circuit's state as a badge; a trip names its reason. */
export function CircuitState({ circuit }: { circuit: CircuitRecord }) {
  const { t } = useTranslation('airSwitch');
  const reason = circuit.tripReason ? ` (${t(`tripReasons.${circuit.tripReason}`)})` : '';
  return (
    <span className="circuit-state" data-state={circuit.state ?? 'unknown'}>
      <Badge status={circuit.state ? STATUS[circuit.state] : 'default'} text={`${t(`states.${circuit.state ?? 'unknown'}`)}${reason}`} />
    </span>
  );
}

export function CircuitTable({ airSwitch }: { airSwitch: AirSwitchRecord }) {
  const { t } = useTranslation('airSwitch');
  const [modal, modalHolder] = Modal.useModal();
  const toggle = useApiMutation({
    mutationFn: (vars: { circuit: number; on: boolean }) => call(airSwitchEndpoints.switch, { body: { id: airSwitch.id, ...vars } }),
    success: t('commandSent'), invalidate: [airSwitchEndpoints.list, airSwitchEndpoints.detail],
  });
  const confirm = (circuit: CircuitRecord, on: boolean) => modal.confirm({
    title: t(on ? 'confirmOnTitle' : 'confirmOffTitle', { name: airSwitch.name, circuit: circuit.name }),
    content: t(on ? 'confirmOn' : 'confirmOff'), okButtonProps: { danger: !on }, okText: t(on ? 'switchOn' : 'switchOff'),
    onOk: () => toggle.run({ circuit: circuit.circuit, on }),
  });
  const columns: TableColumnsType<CircuitRecord> = [
    { title: t('circuit'), dataIndex: 'name', width: 80 },
    { title: t('state'), key: 'state', width: 130, render: (_, c) => <CircuitState circuit={c} /> },
    { title: t('voltage'), dataIndex: 'voltage', render: (v) => reading(v) },
    { title: t('current'), dataIndex: 'current', render: (v) => reading(v, 2) },
    { title: t('power'), dataIndex: 'power', className: 'circuit-power', render: (v) => reading(v) },
    { title: t('powerFactor'), dataIndex: 'powerFactor', render: (v) => reading(v, 2) },
    { title: t('energy'), dataIndex: 'energyKwh', render: (v) => reading(v, 2) },
    { title: t('leakage'), dataIndex: 'leakageMa', render: (v) => reading(v) },
    { title: t('temperature'), dataIndex: 'temperatureC', render: (v) => reading(v) },
    {
      title: t('actions'), key: 'actions', width: 110,
      render: (_, c) => (c.state === 'on'
        ? <Button size="small" danger className="switch-off" onClick={() => confirm(c, false)}>{t('switchOff')}</Button>
        : <Button size="small" type="primary" className="switch-on" onClick={() => confirm(c, true)}>{t('switchOn')}</Button>),
    },
  ];
  return (
    <>
      {modalHolder}
      <Table<CircuitRecord> size="small" rowKey="id" columns={columns} dataSource={airSwitch.circuits} pagination={false} data-testid="circuits" />
    </>
  );
}
