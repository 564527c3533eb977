/**
 * The sign-in form's controls (/login): a text input, a password input with a show/hide button and a
 * primary button, looking like antd's large Input, Input.Password and Button, without antd. antd's style
 * engine and its Input and Button were two fifths of the bytes /login loaded (issue 41's 150 KB budget);
 * every other screen keeps antd.
 */
import { forwardRef, type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useColor } from '../session/appearance';
import { usePrimaryButtonStyle } from './primaryButton';
import './plain-form.css';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'size'> & {
  /** drawn with the error border; pair it with aria-invalid and a described-by message */
  invalid?: boolean;
};

/** A text input with antd's large look; the ref is the <input> itself. */
export const PlainInput = forwardRef<HTMLInputElement, InputProps>(function PlainInput(
  { invalid, ...input },
  ref,
) {
  return (
    <span className="plain-input" data-invalid={invalid || undefined}>
      <input ref={ref} type="text" {...input} />
    </span>
  );
});

/** A password input whose characters the reveal button (a real, focusable button) shows or hides. */
export const PlainPassword = forwardRef<HTMLInputElement, InputProps>(function PlainPassword(
  { invalid, ...input },
  ref,
) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <span className="plain-input" data-invalid={invalid || undefined}>
      <input ref={ref} type={shown ? 'text' : 'password'} {...input} />
      <button
        type="button"
        className="plain-reveal"
        aria-label={t('login.showPassword')}
        aria-pressed={shown}
        onClick={() => setShown((s) => !s)}
      >
        <EyeIcon crossed={!shown} />
      </button>
    </span>
  );
});

/** antd's eye and eye-invisible outlines, drawn small. */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        d="M1.5 12S5.5 4.5 12 4.5 22.5 12 22.5 12 18.5 19.5 12 19.5 1.5 12 1.5 12Z"
      />
      <circle cx="12" cy="12" r="3.5" fill="none" stroke="currentColor" strokeWidth="2" />
      {crossed && <path stroke="currentColor" strokeWidth="2" d="M3 3l18 18" />}
    </svg>
  );
}

/** The chosen colour as the controls' accent (hover and focus borders): set it on the form's container. */
export function usePlainFormAccent(): React.CSSProperties {
  const color = useColor((s) => s.color);
  return { '--plain-primary': color } as React.CSSProperties;
}

/** The form's one submit button in the primary colour; while `busy` a spinner, and aria-busy says so. */
export function PlainSubmit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="plain-button" aria-busy={busy} style={usePrimaryButtonStyle()}>
      {busy && <span className="plain-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
