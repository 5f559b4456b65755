/**
 * Recipient pickers of a rule: accounts and roles of the data centre (contract
 * notification.rule.recipients), for the rule's recipients or its escalation. An account without a
 * verified e-mail address is marked in the list: it gets the inbox only.
 */
import { notificationEndpoints as api } from '@iot/contract';
import { Col, Form, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../../api/useApiQuery';

/** Two multiple selects, `${prefix}AccountIds` and `${prefix}RoleIds`, on one row. */
export function RecipientPickers({ prefix }: { prefix: 'recipient' | 'escalation' }) {
  const { t } = useTranslation('notification');
  const choices = useApiQuery(api.rule.recipients);
  const accounts = (choices.data?.accounts ?? []).map((a) => ({
    value: a.id, label: a.username, mail: a.emailVerified ? a.email : t(a.email ? 'emailUnverified' : 'noEmail'),
  }));
  const roles = (choices.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }));
  return (
    <Row gutter={16}>
      <Col span={12}>
        <Form.Item name={`${prefix}AccountIds`} label={t(`${prefix}Accounts`)} tooltip={t(`${prefix}AccountsHint`)}>
          <Select id={`rule-${prefix}Accounts`} mode="multiple" allowClear loading={choices.isLoading} optionFilterProp="label" options={accounts}
            optionRender={(option) => <>{option.data.label} <Typography.Text type="secondary">· {option.data.mail}</Typography.Text></>} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={`${prefix}RoleIds`} label={t(`${prefix}Roles`)}>
          <Select id={`rule-${prefix}Roles`} mode="multiple" allowClear loading={choices.isLoading} optionFilterProp="label" options={roles} />
        </Form.Item>
      </Col>
    </Row>
  );
}
