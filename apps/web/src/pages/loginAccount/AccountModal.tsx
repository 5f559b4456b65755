/**
 * The "add account" and "change password" modal of 登录账号. Adding also sets the data centres the
 * account works in (this one always, others the signed-in account may use) and binds roles of this
 * data centre (with BINDING_ROLES; RoleSelect). Username and password (twice) are checked
 * in the browser by the contract's rules; the password leaves the browser RSA-OAEP encrypted
 * (newPassword.ts). Server refusals show as the client's toast in the current language.
 */
import { accountEndpoints, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, usernameSchema, type AccountRecord } from '@iot/contract';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { CryptoUnavailableError } from '../../lib/crypto';
import { encryptNewPassword } from './newPassword';
import { RoleSelect } from './RoleSelect';
import { mayOpen, useTenantId, useUserInfo } from '../../hooks/useSession';
import { maxChars } from '../../components/formRules';

/** What the modal does: create an account, or set the password of `account`. */
export type AccountModalMode = { kind: 'add' } | { kind: 'password'; account: AccountRecord };

interface Values {
  username?: string;
  roleIds?: number[];
  tenantIds?: number[];
  password: string;
  confirm: string;
}

export interface AccountModalProps {
  /** Kept while the modal closes, so its content does not change during the animation. */
  mode: AccountModalMode;
  open: boolean;
  onClose(): void;
}

/** The modal form. */
export function AccountModal({ mode, open, onClose }: AccountModalProps) {
  const { t } = useTranslation('account');
  const [form] = Form.useForm<Values>();
  const adding = mode.kind === 'add';
  const { data: info } = useUserInfo();
  const mayBind = info !== undefined && mayOpen(info, 'BINDING_ROLES');
  const tenantId = useTenantId();
  const tenants = info?.tenants ?? [];

  const save = useApiMutation({
    form,
    mutationFn: async (values: Values) => {
      const encrypted = await encryptNewPassword(values.password);
      const tenantIds = values.tenantIds?.filter((id) => id !== tenantId);
      if (mode.kind === 'add') await call(accountEndpoints.add, { body: { username: values.username?.trim() ?? '', ...encrypted, roleIds: values.roleIds, tenantIds } });
      else await call(accountEndpoints.editPassword, { body: { id: mode.account.id, ...encrypted } });
    },
    success: t('saved'),
    invalidate: [accountEndpoints.list, accountEndpoints.queryRoles],
    errorText: (error) => (error instanceof CryptoUnavailableError ? t('cryptoUnavailable') : undefined),
    onSuccess: onClose,
  });

  return (
    <Modal
      open={open}
      title={mode.kind === 'password' ? t('changePasswordOf', { username: mode.account.username }) : t('add')}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off" initialValues={{ tenantIds: [tenantId] }}>
        {adding && (
          <Form.Item htmlFor="account-username"
            name="username"
            label={t('username')}
            rules={[maxChars(USERNAME_MAX), 
              { required: true, whitespace: true },
              { validator: async (_, value?: string) => {
                if (value?.trim() && !usernameSchema.safeParse(value).success) throw new Error(t('usernameInvalid', { max: USERNAME_MAX }));
              } },
            ]}
          >
            <Input id="account-username" autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item htmlFor="account-password"
          name="password"
          label={t('password')}
          rules={[
            { required: true },
            { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('passwordLength', { min: PASSWORD_MIN, max: PASSWORD_MAX }) },
          ]}
        >
          <Input.Password id="account-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item htmlFor="account-confirm"
          name="confirm"
          label={t('confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true },
            ({ getFieldValue }) => ({
              validator: async (_, value?: string) => {
                if (value && value !== getFieldValue('password')) throw new Error(t('confirmMismatch'));
              },
            }),
          ]}
        >
          <Input.Password id="account-confirm" autoComplete="new-password" />
        </Form.Item>
        {adding && tenants.length > 1 && (
          <Form.Item htmlFor="account-tenants" name="tenantIds" label={t('tenants')} extra={t('tenantsHint')}>
            <Select id="account-tenants" mode="multiple" options={tenants.map((tenant) => ({ value: tenant.id, label: tenant.name, disabled: tenant.id === tenantId }))} />
          </Form.Item>
        )}
        {adding && mayBind && (
          <Form.Item htmlFor="account-roles" name="roleIds" label={t('roles')} extra={t('rolesHint')}>
            <RoleSelect id="account-roles" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
