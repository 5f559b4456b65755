/**
 * The "add account" and "change password" modal of 登录账号. Username and password (twice) are checked
 * in the browser by the contract's rules; the password leaves the browser RSA-OAEP encrypted
 * (newPassword.ts). Server refusals show as the client's toast in the current language.
 */
import { accountEndpoints, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, usernameSchema, type AccountRecord } from '@iot/contract';
import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { CryptoUnavailableError } from '../login/crypto';
import { encryptNewPassword } from './newPassword';

/** What the modal does: create an account, or set the password of `account`. */
export type AccountModalMode = { kind: 'add' } | { kind: 'password'; account: AccountRecord };

interface Values {
  username?: string;
  password: string;
  confirm: string;
}

export interface AccountModalProps {
  /** Kept while the modal closes, so its content does not change during the animation. */
  mode: AccountModalMode;
  open: boolean;
  onClose(): void;
  /** Called after a successful save. */
  onSaved(): void;
}

/** The modal form. */
export function AccountModal({ mode, open, onClose, onSaved }: AccountModalProps) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const adding = mode.kind === 'add';

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const encrypted = await encryptNewPassword(values.password);
      if (mode.kind === 'add') await call(accountEndpoints.add, { body: { username: values.username?.trim() ?? '', ...encrypted } });
      else await call(accountEndpoints.editPassword, { body: { id: mode.account.id, ...encrypted } });
      message.success(t('saved'));
      onSaved();
      onClose();
    } catch (error) {
      if (error instanceof CryptoUnavailableError) message.error(t('cryptoUnavailable'));
      /* ApiError: the client already showed the server's message */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={mode.kind === 'password' ? t('changePasswordOf', { username: mode.account.username }) : t('add')}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} autoComplete="off">
        {adding && (
          <Form.Item
            name="username"
            label={t('username')}
            rules={[
              { required: true, whitespace: true, message: t('usernameRequired') },
              { validator: async (_, value?: string) => {
                if (value?.trim() && !usernameSchema.safeParse(value).success) throw new Error(t('usernameInvalid', { max: USERNAME_MAX }));
              } },
            ]}
          >
            <Input id="account-username" autoComplete="off" maxLength={USERNAME_MAX} />
          </Form.Item>
        )}
        <Form.Item
          name="password"
          label={t('password')}
          rules={[
            { required: true, message: t('passwordRequired') },
            { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('passwordLength', { min: PASSWORD_MIN, max: PASSWORD_MAX }) },
          ]}
        >
          <Input.Password id="account-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('confirmRequired') },
            ({ getFieldValue }) => ({
              validator: async (_, value?: string) => {
                if (value && value !== getFieldValue('password')) throw new Error(t('confirmMismatch'));
              },
            }),
          ]}
        >
          <Input.Password id="account-confirm" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
