/**
 * One labelled control of the properties panel: the label names the control (`htmlFor`), the help or the
 * error below it describes it (`aria-describedby`), and an error marks it invalid and is announced (antd
 * shows form errors with role="alert").
 */
import type { ExpressionError } from '@smart/contracts/bpmn';
import { Form } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ValueProblem } from './service-task';

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

export function PanelField({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label?: ReactNode;
  help?: ReactNode;
  error?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const describedBy = error || help ? `${id}-help` : undefined;
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      validateStatus={error ? 'error' : undefined}
      help={describedBy ? <span id={describedBy}>{error ?? help}</span> : undefined}
      style={{ marginBottom: 12 }}
    >
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
    </Form.Item>
  );
}

/** The panel's words for what is wrong with a value. */
export function useProblemText() {
  const { t } = useTranslation();
  const expression = (e: ExpressionError) =>
    t(`wf.designer.expr.${e.kind}`, { token: 'token' in e ? e.token : '' });
  return (p: ValueProblem | null | undefined): string | undefined => {
    if (!p) return undefined;
    switch (p.kind) {
      case 'expression':
        return expression(p.error);
      case 'locked':
      case 'duplicate':
        return t(`wf.designer.problem.${p.kind}`, { name: p.name });
      default:
        return t(`wf.designer.problem.${p.kind}`);
    }
  };
}
