/**
 * 公共门 / Common door of the chosen lock (docs/stays.md "Common doors"): a room's own door, or
 * one serving every room of its building (entrance, lift) or of its floor (floor gate), on which the
 * rooms' stays are issued too. A change is confirmed first: the building's active stays are re-issued.
 */
import { type CommonDoorScope, stayEndpoints } from '@iot/contract';
import { Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useMayCall } from '../../hooks/mayCall';

type Choice = CommonDoorScope | 'none';
const CHOICES: readonly Choice[] = ['none', 'building', 'floor'];

/** A select with the lock's mark; read-only without 用户管理's key. */
export function CommonDoorSetting({ lockId, building }: { lockId: number; building: string }) {
  const { t } = useTranslation('stay');
  const [modal, modalHolder] = Modal.useModal();
  const doors = useApiQuery(stayEndpoints.commonDoors, { building });
  const mayChange = useMayCall(stayEndpoints.setCommonDoor);
  const save = useApiMutation({
    mutationFn: (choice: Choice) => call(stayEndpoints.setCommonDoor, { body: { lockId, commonDoor: choice === 'none' ? null : choice } }),
    invalidate: [stayEndpoints.commonDoors, stayEndpoints.list],
    success: (result) => t('commonDoor.saved', { count: result.staysAffected }),
  });
  const current: Choice = doors.data?.find((door) => door.lockId === lockId)?.commonDoor ?? 'none';
  const choose = (choice: Choice) => modal.confirm({
    title: t('commonDoor.confirmTitle', { choice: t(`commonDoor.${choice}`) }), content: t('commonDoor.confirm'),
    onOk: () => save.run(choice),
  });
  return (
    <>
      {modalHolder}
      <Select<Choice>
        className="room-common-door" size="small" style={{ minWidth: 240 }} value={current} loading={doors.isLoading || save.isPending}
        disabled={!mayChange} onChange={choose} options={CHOICES.map((choice) => ({ value: choice, label: t(`commonDoor.${choice}`) }))}
      />
    </>
  );
}
