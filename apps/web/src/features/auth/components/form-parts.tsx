import { EMAIL_MAX } from '@store/contract';
import { type ComponentProps, type ReactNode, useId, useState } from 'react';
import {
  type FieldError,
  type FieldValues,
  get,
  type Path,
  type UseFormReturn,
  useFormState,
  useWatch,
} from 'react-hook-form';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { passwordStrength } from '../password-strength.ts';
import { EyeIcon, EyeOffIcon } from './eye-icons.tsx';
import styles from './form.module.css';

/** Messages are keys (the contract's and the server's); anything else is shown as the server wrote it. */
export function useMessageText() {
  const { t, i18n } = useTranslation();
  return (message: string | undefined) => {
    if (!message) return undefined;
    return i18n.exists(message) ? t(message) : message;
  };
}

/** What a field's control spreads: its id for the label, and the link to the error under it. */
export interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}

/** A label, the control, and the first error under it. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = Boolean(error);
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children({ id, 'aria-invalid': invalid, 'aria-describedby': invalid ? errorId : undefined })}
      {hint}
      {error && (
        <p className={styles.error} id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** An email address input, at most EMAIL_MAX characters. */
export function EmailInput(props: ComponentProps<'input'>) {
  return <input type="email" autoComplete="email" maxLength={EMAIL_MAX} className={styles.input} {...props} />;
}

/** A password input with a show/hide toggle; `strength` adds the strength bar under it. */
export function PasswordInput({
  strength,
  ...props
}: ComponentProps<'input'> & {
  /** The value to grade; given, the strength bar shows under the input. */
  strength?: string;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const grade = strength === undefined ? null : passwordStrength(strength);
  return (
    <>
      <div className={styles.passwordWrap}>
        <input {...props} type={visible ? 'text' : 'password'} className={styles.input} />
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')}
          aria-pressed={visible}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {grade && (
        <div className={styles.strength} data-testid="password-strength">
          <span className={styles.strengthBar}>
            <span className={styles.strengthFill} data-strength={grade} />
          </span>
          <span>{t(`auth.strength.${grade}`)}</span>
        </div>
      )}
    </>
  );
}

/**
 * A new password with its strength bar, and its repeat (registration, reset and password change).
 * Changing the password re-checks the repeat, so "do not match" clears as soon as they agree.
 */
export function NewPasswordFields<T extends FieldValues>({
  form,
  names: [password, repeat],
  label,
}: {
  form: UseFormReturn<T>;
  names: readonly [password: Path<T>, repeat: Path<T>];
  label: string;
}) {
  const { t } = useTranslation();
  const message = useMessageText();
  const value = useWatch({ control: form.control, name: password });
  const { errors } = useFormState({ control: form.control, name: [password, repeat] });
  const errorOf = (name: Path<T>) => message((get(errors, name) as FieldError | undefined)?.message);
  return (
    <>
      <Field label={label} error={errorOf(password)}>
        {(control) => (
          <PasswordInput
            {...control}
            strength={typeof value === 'string' ? value : ''}
            autoComplete="new-password"
            {...form.register(password, { deps: [repeat] })}
          />
        )}
      </Field>
      <Field label={t('auth.passwordRepeat')} error={errorOf(repeat)}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register(repeat)} />}
      </Field>
    </>
  );
}

/** The rate-limit and other form-wide messages: dismissible, announced when they appear. */
export function FormBanner({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <div className={styles.banner} role="alert" data-testid="form-banner">
      <span>{message}</span>
      <button type="button" className={styles.bannerClose} onClick={onDismiss} aria-label={t('common.close')}>
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
