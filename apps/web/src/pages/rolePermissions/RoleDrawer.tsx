/**
 * Add / edit drawer of 角色权限: name, description and a checkable tree of the menu (authorityTree.ts
 * explains how checked pages map to stored authority keys, group keys included); each page says what
 * its key opens (KeyReach).
 */
import { roleEndpoints, type RoleRecord } from '@iot/contract';
import { Button, Drawer, Form, Input, Space, Switch, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useLanguage } from '../../hooks/useSession';
import { authoritiesOf, authorityTree, checkedPages, isActionKey } from './authorityTree';
import { KeyReach } from './KeyReach';
import { maxChars } from '../../components/formRules';

const NAME_MAX = 32;
const DESCRIPTION_MAX = 200;

/** `new` for a new role, or the role to edit. */
export type RoleDrawerTarget = 'new' | RoleRecord;

interface Values {
  name: string;
  description?: string;
  /** Members must sign in with two-factor. */
  requiresTwoFactor?: boolean;
}

export interface RoleDrawerProps {
  /** Kept while the drawer closes, so its title does not change during the animation. */
  target: RoleDrawerTarget;
  open: boolean;
  onClose(): void;
}

/** The role editor. */
export function RoleDrawer({ target, open, onClose }: RoleDrawerProps) {
  const { t } = useTranslation('role');
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const [checked, setChecked] = useState<Key[]>([]);
  const treeData = useMemo(() => authorityTree(language), [language]);
  const role = typeof target === 'object' ? target : undefined;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ name: role?.name ?? '', description: role?.description ?? '', requiresTwoFactor: role?.requiresTwoFactor ?? false });
    setChecked(checkedPages(role?.authorities ?? []));
  }, [open, role, form]);

  const save = useApiMutation({
    form,
    mutationFn: async (values: Values) => {
      const fields = { name: values.name.trim(), description: values.description?.trim() ?? '', authorities: authoritiesOf(checked), requiresTwoFactor: values.requiresTwoFactor ?? false };
      if (role) await call(roleEndpoints.update, { body: { id: role.id, ...fields } });
      else await call(roleEndpoints.add, { body: fields });
    },
    success: t('saved'),
    invalidate: [roleEndpoints.list],
    onSuccess: onClose,
  });

  const pages = checkedPages(checked.map(String)).filter((key) => !isActionKey(key)).length;
  return (
    <Drawer
      open={open}
      title={role ? t('editTitle', { name: role.name }) : t('add')}
      size={520}
      onClose={onClose}
      forceRender
      className="role-drawer"
      extra={(
        <Space>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>{t('save')}</Button>
        </Space>
      )}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Form.Item htmlFor="role-name"
          name="name"
          label={t('name')}
          rules={[{ required: true, whitespace: true }, maxChars(NAME_MAX)]}
        >
          <Input id="role-name" showCount />
        </Form.Item>
        <Form.Item htmlFor="role-description" name="description" label={t('description')} rules={[maxChars(DESCRIPTION_MAX)]}>
          <Input.TextArea id="role-description" rows={2} />
        </Form.Item>
        <Form.Item htmlFor="role-requires-two-factor" name="requiresTwoFactor" label={t('requiresTwoFactor')} tooltip={t('requiresTwoFactorHint')} valuePropName="checked">
          <Switch id="role-requires-two-factor" />
        </Form.Item>
        <Form.Item
          label={<>{t('menuAuthorities')}<Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>{t('selectedCount', { count: pages })}</Typography.Text></>}
          tooltip={t('treeHint')}
        >
          <Tree
            checkable
            selectable={false}
            defaultExpandAll
            treeData={treeData}
            checkedKeys={checked}
            onCheck={(keys) => setChecked(Array.isArray(keys) ? keys : keys.checked)}
            titleRender={(node) => <KeyReach node={node} />}
            className="role-authority-tree"
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
