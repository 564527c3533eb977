/** The public account a screen works on: a select when the tenant has several, its name when one. */
import { Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AccountOption } from './accounts';

export function AccountPicker({
  accounts,
  accountId,
  onChange,
}: {
  accounts: AccountOption[] | null;
  accountId: string | undefined;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (accounts && accounts.length > 1)
    return (
      <Select
        aria-label={t('wxmp.pickAccount')}
        value={accountId}
        onChange={onChange}
        options={accounts.map((a) => ({ value: a.id, label: a.label }))}
        style={{ minWidth: 200 }}
      />
    );
  return <Typography.Text strong>{accounts?.find((a) => a.id === accountId)?.label}</Typography.Text>;
}
