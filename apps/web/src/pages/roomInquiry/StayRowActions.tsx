/**
 * The stay list's extra actions of one stay, beside check in / check out in StayDrawer:
 * 修改 / Edit (a booked or checked-in stay: StayEditModal) and 门锁 / Doors (every stay with doors:
 * StayDoorsModal), 门卡 / Card (a booked or checked-in stay: StayCardModal). Each opens its own dialog.
 */
import type { StayRecord } from '@iot/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StayCardModal } from './StayCardModal';
import { StayDoorsModal } from './StayDoorsModal';
import { StayEditModal } from './StayEditModal';

/** Edit, Doors and Card buttons for `stay`, with their dialogs. */
export function StayRowActions({ stay }: { stay: StayRecord }) {
  const { t } = useTranslation('stay');
  const [open, setOpen] = useState<'edit' | 'doors' | 'card'>();
  const close = () => setOpen(undefined);
  return (
    <>
      {(stay.state === 'BOOKED' || stay.state === 'CHECKED_IN') && <Button size="small" type="link" className="stay-edit" onClick={() => setOpen('edit')}>{t('edit')}</Button>}
      {stay.issuedAt !== null && <Button size="small" type="link" className="stay-doors" onClick={() => setOpen('doors')}>{t('doors')}</Button>}
      {(stay.state === 'BOOKED' || stay.state === 'CHECKED_IN') && <Button size="small" type="link" className="stay-card" onClick={() => setOpen('card')}>{t('card')}</Button>}
      <StayEditModal stay={open === 'edit' ? stay : undefined} onClose={close} />
      <StayDoorsModal id={open === 'doors' ? stay.id : undefined} onClose={close} />
      <StayCardModal stay={open === 'card' ? stay : undefined} onClose={close} />
    </>
  );
}
