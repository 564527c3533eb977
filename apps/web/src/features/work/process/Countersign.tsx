/**
 * Choosing a countersign's approvers (会签, 或签): when the next step of a process is a multi-instance user
 * task over a collection variable, whoever takes the step before it — the applicant on the start form, or
 * the holder of the task before it on the handle page — picks the users, sent as that variable (a list of
 * user ids). Nothing is shown for a process without countersign.
 */
import '../i18n';
import type { CountersignStep } from '@smart/contracts/bpmn';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTypedKeyword } from '../../../platform/crud/RefSelect';
import { getData } from '../../../platform/http/client';
import { FLOW_API, userLabel } from '../../flow/api';

/** The form values' key under which the approver lists are kept, by collection variable. */
export const COUNTERSIGN_FIELD = 'variables';
export type ApproverLists = Record<string, string[]>;

/** A user as `/api/dfem-user/select` answers: the real name, and the account as its hint. */
interface UserChoice {
  id: string;
  label: string;
  hint?: string;
}

/**
 * The options of an approver picker: the tenant's users found on the server (`/api/dfem-user/select`, the
 * user resource's picker, which whoever starts or handles work may read) by the name or account typed —
 * filtered on the screen too while the server answers —, and the users already picked, each labelled
 * 姓名 (账号) (an account of 15 characters or more masked, as the picker answers it). Spread onto an antd
 * Select.
 */
export function useApproverChoices(value: string | string[] | undefined) {
  const { typed, keyword, setTyped } = useTypedKeyword();
  const found = useQuery({
    queryKey: ['work-approver-choices', keyword],
    queryFn: () => getData<UserChoice[]>('/api/dfem-user/select', { keyword, size: 50 }),
    staleTime: 30_000,
  });
  // the labels of users seen, so that one picked stays named when the next search no longer finds them
  const seen = useRef(new Map<string, string>());
  const options = useMemo(() => {
    const shown = new Map<string, string>();
    for (const u of found.data ?? []) {
      const label = userLabel({ id: u.id, realName: u.label, account: u.hint ?? u.label });
      seen.current.set(u.id, label);
      shown.set(u.id, label);
    }
    for (const id of [value ?? []].flat()) if (!shown.has(id)) shown.set(id, seen.current.get(id) ?? id);
    return [...shown].map(([id, label]) => ({ value: id, label }));
  }, [found.data, value]);
  // what the server found for the text now typed is shown as found (a long account is masked in the
  // label); until it answers, the options whose label holds the text
  const foundNow = new Set(keyword === typed.trim() ? (found.data ?? []).map((u) => u.id) : []);
  return {
    options,
    loading: found.isFetching,
    showSearch: {
      onSearch: setTyped,
      filterOption: (input: string, option?: { value: string; label: string }) =>
        !!option &&
        (foundNow.has(option.value) || option.label.toLowerCase().includes(input.trim().toLowerCase())),
    },
    onBlur: () => setTyped(''),
  } as const;
}

/** The users of the tenant as a searchable select of several. */
export function ApproversSelect(props: { id?: string; value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  const choices = useApproverChoices(props.value);
  return (
    <Select
      {...props}
      {...choices}
      mode="multiple"
      allowClear
      placeholder={t('work.countersign.placeholder')}
    />
  );
}

/**
 * One required picker per countersign: which step it is for, how it completes, which variable it sets, and
 * whether the users picked get it at once or in turn (the order of the select).
 */
export function CountersignFields({ steps }: { steps: readonly CountersignStep[] }) {
  const { t } = useTranslation();
  return steps.map((step) => (
    <Form.Item
      key={step.variable}
      name={[COUNTERSIGN_FIELD, step.variable]}
      label={t('work.countersign.approvers', { step: step.name })}
      extra={
        <>
          <div>{t(`work.countersign.help.${step.kind}`, { variable: step.variable })}</div>
          <div>{t(`work.countersign.order.${step.sequential ? 'sequential' : 'parallel'}`)}</div>
        </>
      }
      rules={[
        {
          required: true,
          type: 'array',
          min: 1,
          message: t('work.countersign.required', { step: step.name }),
        },
      ]}
    >
      <ApproversSelect />
    </Form.Item>
  ));
}

/** The lists the form holds, without empty ones (what the start and complete calls take as `variables`). */
export function approverListsOf(values: object): ApproverLists | undefined {
  const lists = (values as { [COUNTERSIGN_FIELD]?: Record<string, string[] | undefined> })[COUNTERSIGN_FIELD];
  const kept = Object.entries(lists ?? {}).filter((e): e is [string, string[]] => !!e[1]?.length);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * The countersigns whose users this form picks, as the server reads them from the deployed model: those the
 * definition begins with (the start form), or those right after the caller's open task `taskId` (the
 * handle page). None while it answers, or for a process without countersign.
 */
export function useCountersigns(
  of: { processDefinitionId: string } | { taskId: string } | undefined,
): CountersignStep[] {
  const steps = useQuery({
    queryKey: ['flow-countersigns', of],
    // silent: a task no longer open shows no picker (the page says why); a list still missing when the
    // form is sent is the server's 400 naming the step
    queryFn: () => getData<CountersignStep[]>(`${FLOW_API}/work/countersigns`, of, { silent: true }),
    enabled: !!of,
    staleTime: 60_000,
  });
  return steps.data ?? [];
}
