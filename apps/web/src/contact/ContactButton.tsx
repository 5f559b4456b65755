/**
 * The header's entry to the person's contact details: an icon button, next to the
 * username, opening ContactModal (loaded on first open): e-mail address with its verification,
 * mobile number and the language of e-mails.
 */
import { MailOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

const ContactModal = lazy(() => import('./ContactModal'));

/** The button with its dialog. */
export function ContactButton() {
  const { t } = useTranslation('contact');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('menu')}>
        <Button type="text" className="contact-button" aria-label={t('menu')} icon={<MailOutlined />} onClick={() => setOpen(true)} />
      </Tooltip>
      {open && <Suspense fallback={null}><ContactModal open={open} onClose={() => setOpen(false)} /></Suspense>}
    </>
  );
}
