import { zodResolver } from '@hookform/resolvers/zod';
import { NAME_MAX, NameUpdateRequestSchema } from '@store/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation.tsx';
import formStyles from '../../auth/components/form.module.css';
import { Field, FormBanner, useMessageText } from '../../auth/components/form-parts.tsx';
import { useServerErrors } from '../../auth/hooks/use-server-errors.ts';
import { useUpdateName } from '../api/update-name.ts';
import styles from './profile.module.css';

const FIELDS = ['name'] as const;

/** The name, and a form to change it (PATCH /profile/name-update). */
export function NameForm({ name }: { name: string }) {
  const { t } = useTranslation();
  const message = useMessageText();
  const update = useUpdateName();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const form = useForm({ resolver: zodResolver(NameUpdateRequestSchema), defaultValues: { name } });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    try {
      await update.mutateAsync(values);
      setEditing(false);
      setSaved(true);
    } catch (error) {
      handleServerError(error);
    }
  });

  if (!editing) {
    return (
      <div className={styles.row}>
        <div>
          <div className={styles.label}>{t('profile.name')}</div>
          <div className={styles.value} data-testid="profile-name">
            {name}
          </div>
          {saved && (
            <p className={formStyles.success} role="status">
              {t('profile.nameSaved')}
            </p>
          )}
        </div>
        <button
          type="button"
          className={styles.button}
          onClick={() => {
            form.reset({ name });
            setSaved(false);
            setEditing(true);
          }}
        >
          {t('profile.editName')}
        </button>
      </div>
    );
  }

  return (
    <form className={formStyles.form} onSubmit={submit} noValidate aria-label={t('profile.editName')}>
      <FormBanner message={banner} onDismiss={dismissBanner} />
      <Field label={t('profile.newName')} error={message(errors.name?.message)}>
        {(control) => (
          <input
            {...control}
            className={formStyles.input}
            maxLength={NAME_MAX * 2}
            autoComplete="username"
            {...form.register('name')}
          />
        )}
      </Field>
      <div className={styles.actions}>
        <button type="submit" className={formStyles.submit} disabled={isSubmitting || Object.keys(errors).length > 0}>
          {t('profile.save')}
        </button>
        <button type="button" className={styles.button} onClick={() => setEditing(false)}>
          {t('profile.cancel')}
        </button>
      </div>
    </form>
  );
}
