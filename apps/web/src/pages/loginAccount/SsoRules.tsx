/**
 * 登录账号's single sign-on tab (docs/identity.md "Single sign-on"): the data centre's
 * rules mapping a claim of the OpenID provider's (`groups` by default) to roles here, with add (claim,
 * value, roles; the server refuses roles beyond the caller's with ESCALATION) and delete. Whether the
 * server has a provider at all is said on top (GET /oauth/sso); rules can be kept either way. Below
 * it, the data centre's password sign-in switch (PasswordSignIn.tsx).
 */
import { ssoEndpoints as api, type SsoRuleRecord } from '@iot/contract';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { maxChars } from '../../components/formRules';
import { formatTime } from '../../components/logColumns';
import { PasswordSignIn } from './PasswordSignIn';
import { RoleSelect } from './RoleSelect';

interface Values {
  claim: string;
  value: string;
  roleIds: number[];
}

/** The rule table with its add dialog. */
export function SsoRules() {
  const { t } = useTranslation('sso');
  const status = useApiQuery(api.status);
  const rules = useApiQuery(api.rule.list);
  const refresh = useInvalidate(api.rule.list);
  const [adding, setAdding] = useState(false);
  const [form] = Form.useForm<Values>();
  const invalidate = [api.rule.list];
  const add = useApiMutation({
    form,
    mutationFn: (values: Values) => call(api.rule.add, { body: { claim: values.claim.trim(), value: values.value.trim(), roleIds: values.roleIds } }),
    success: t('added'), invalidate, onSuccess: () => setAdding(false),
  });
  const remove = useApiMutation({ mutationFn: (id: number) => call(api.rule.delete, { body: { id } }), success: t('deleted'), invalidate });

  const columns: TableColumnsType<SsoRuleRecord> = [
    { title: t('claim'), dataIndex: 'claim', render: (claim: string) => <code>{claim}</code> },
    { title: t('value'), dataIndex: 'value' },
    { title: t('roles'), dataIndex: 'roles', render: (roles: SsoRuleRecord['roles']) => roles.map((role) => <Tag key={role.id} color="geekblue">{role.name}</Tag>) },
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime },
    {
      title: t('actions'), key: 'actions', fixed: 'right',
      render: (_, record) => (
        <Popconfirm title={t('deleteConfirm')} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={() => remove.run(record.id)}>
          <Button type="link" size="small" danger>{t('delete')}</Button>
        </Popconfirm>
      ),
    },
  ];

  const provider = status.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {provider && (
        <Alert type={provider.enabled ? 'info' : 'warning'} showIcon
          message={provider.enabled ? t('intro', { name: provider.displayName }) : t('notConfigured')} />
      )}
      {provider && <PasswordSignIn enabled={provider.passwordSignIn} />}
      <Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>{t('add')}</Button>
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>{t('refresh')}</Button>
      </Space>
      <Table<SsoRuleRecord> rowKey="id" columns={columns} dataSource={rules.data ?? []} loading={rules.isLoading} scroll={{ x: 'max-content' }} pagination={{ pageSize: 20, hideOnSinglePage: true }} />
      <Modal open={adding} title={t('add')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={add.isPending} onOk={() => form.submit()}
        onCancel={() => setAdding(false)} afterClose={() => form.resetFields()} forceRender>
        <Form form={form} layout="vertical" onFinish={(values) => void add.run(values)} autoComplete="off" initialValues={{ claim: 'groups' }}>
          <Form.Item htmlFor="sso-rule-claim" name="claim" label={t('claim')} extra={t('claimHint')} rules={[{ required: true, whitespace: true, message: t('claimRequired') }, maxChars(128)]}>
            <Input id="sso-rule-claim" />
          </Form.Item>
          <Form.Item htmlFor="sso-rule-value" name="value" label={t('value')} extra={t('valueHint')} rules={[{ required: true, whitespace: true, message: t('valueRequired') }, maxChars(256)]}>
            <Input id="sso-rule-value" />
          </Form.Item>
          <Form.Item htmlFor="sso-rule-roles" name="roleIds" label={t('roles')} rules={[{ required: true, message: t('rolesRequired') }]}>
            <RoleSelect id="sso-rule-roles" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
