/**
 * The tenant's public accounts as the screens pick them (`wxAccount/select`: id and name), the first chosen
 * until the person picks another; `null` while they load.
 */
import { wxAccountResource } from '@smart/contracts/wechat-mp';
import { useEffect, useState } from 'react';
import { getData } from '../../platform/http/client';

export const WX_API = `/api/${wxAccountResource.service}`;

export interface AccountOption {
  id: string;
  label: string;
}

export function useWxAccounts() {
  const [accounts, setAccounts] = useState<AccountOption[] | null>(null);
  const [accountId, setAccountId] = useState<string>();
  useEffect(() => {
    getData<AccountOption[]>(`${WX_API}/wxAccount/select`, { size: 50 })
      .then((list) => {
        setAccounts(list);
        setAccountId((was) => was ?? list[0]?.id);
      })
      .catch(() => setAccounts([]));
  }, []);
  const account = accounts?.find((a) => a.id === accountId);
  return { accounts, accountId, setAccountId, account };
}
