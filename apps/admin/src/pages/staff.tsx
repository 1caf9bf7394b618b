import {
  ADMIN_REASON_MIN,
  STAFF_ROLES,
  type Staff,
  StaffListResponseSchema,
  StaffResponseSchema,
  type StaffRole,
  type StaffSecretsResponse,
  StaffSecretsResponseSchema,
} from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSession } from '../app/use-session.ts';
import { Modal } from '../components/dialog.tsx';
import { Empty, ErrorState, Loading } from '../components/states.tsx';
import { adminGet, adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError } from '../lib/errors.ts';
import { formatDateTime } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';

type Dialog = { kind: 'add' } | { kind: 'reason'; staff: Staff; action: 'two-factor-reset' | 'disable' | 'enable' };

/** Staff (owner only): add, change role, reset two-factor, disable and enable. */
export default function StaffPage() {
  const { t, language } = useI18n();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [secrets, setSecrets] = useState<StaffSecretsResponse | null>(null);
  const query = useQuery({
    queryKey: ['staff'],
    queryFn: ({ signal }) => adminGet('/staff', StaffListResponseSchema, { signal }),
  });
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: StaffRole }) =>
      adminSend('PATCH', `/staff/${segment(id)}/role`, { role }, StaffResponseSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff'] }),
  });
  const close = () => setDialog(null);

  return (
    <section className="stack">
      <div className="page-head">
        <h1>{t('staff.title')}</h1>
        <button type="button" className="button primary" onClick={() => setDialog({ kind: 'add' })}>
          {t('staff.add')}
        </button>
      </div>
      {changeRole.error && (
        <p className="error" role="alert">
          {errorText(t, changeRole.error)}
        </p>
      )}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <Empty>{t('staff.empty')}</Empty>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('auth.email')}</th>
              <th>{t('staff.role')}</th>
              <th>{t('staff.lastSignIn')}</th>
              <th>{t('customers.state')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {query.data.items.map((member) => {
              const self = member.id === session?.staff.id;
              return (
                <tr key={member.id}>
                  <td className="ellipsis">{member.email}</td>
                  <td>
                    <select
                      aria-label={t('staff.role')}
                      value={member.role}
                      disabled={self || changeRole.isPending}
                      onChange={(event) => changeRole.mutate({ id: member.id, role: event.target.value as StaffRole })}
                    >
                      {STAFF_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {t(`roles.${role}`)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>{member.last_sign_in_at ? formatDateTime(member.last_sign_in_at, language) : '—'}</td>
                  <td>
                    {member.disabled_at
                      ? t('staff.disabled')
                      : member.totp_confirmed
                        ? t('customers.active')
                        : t('staff.pending')}
                  </td>
                  <td className="actions">
                    {!self && (
                      <>
                        <button
                          type="button"
                          className="button secondary"
                          onClick={() => setDialog({ kind: 'reason', staff: member, action: 'two-factor-reset' })}
                        >
                          {t('staff.resetTwoFactor')}
                        </button>
                        <button
                          type="button"
                          className="button secondary"
                          onClick={() =>
                            setDialog({
                              kind: 'reason',
                              staff: member,
                              action: member.disabled_at ? 'enable' : 'disable',
                            })
                          }
                        >
                          {member.disabled_at ? t('staff.enable') : t('staff.disable')}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Modal
        open={dialog !== null}
        onOpenChange={(open) => !open && close()}
        title={
          dialog?.kind === 'add'
            ? t('staff.add')
            : dialog
              ? t(`staff.dialog.${dialog.action}`, { email: dialog.staff.email })
              : ''
        }
      >
        {dialog?.kind === 'add' && (
          <AddForm
            onDone={(answer) => {
              close();
              setSecrets(answer);
            }}
          />
        )}
        {dialog?.kind === 'reason' && (
          <ReasonForm
            staff={dialog.staff}
            action={dialog.action}
            onDone={(answer) => {
              close();
              if (answer) setSecrets(answer);
            }}
          />
        )}
      </Modal>
      <Modal open={secrets !== null} onOpenChange={(open) => !open && setSecrets(null)} title={t('staff.secrets')}>
        {secrets && <Secrets secrets={secrets} />}
      </Modal>
    </section>
  );
}

function AddForm({ onDone }: { onDone: (answer: StaffSecretsResponse) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (form: FormData) =>
      adminSend(
        'POST',
        '/staff',
        {
          email: String(form.get('email') ?? '').trim(),
          role: form.get('role'),
          password: String(form.get('password') ?? ''),
        },
        StaffSecretsResponseSchema,
      ),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['staff'] });
      onDone(answer);
    },
  });
  const error = mutation.error;
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        mutation.mutate(new FormData(event.currentTarget));
      }}
    >
      <label className="field">
        <span>{t('auth.email')}</span>
        <input name="email" type="email" autoComplete="off" />
        {fieldError(t, error, 'email') && <small className="field-error">{fieldError(t, error, 'email')}</small>}
      </label>
      <label className="field">
        <span>{t('staff.role')}</span>
        <select name="role" defaultValue="support">
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('staff.password')}</span>
        <input name="password" type="password" autoComplete="new-password" />
        {fieldError(t, error, 'password') && <small className="field-error">{fieldError(t, error, 'password')}</small>}
      </label>
      {error && !fieldError(t, error, 'email') && !fieldError(t, error, 'password') && (
        <p className="error" role="alert">
          {errorText(t, error)}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={mutation.isPending}>
          {t('staff.add')}
        </button>
      </div>
    </form>
  );
}

function ReasonForm({
  staff,
  action,
  onDone,
}: {
  staff: Staff;
  action: 'two-factor-reset' | 'disable' | 'enable';
  onDone: (answer: StaffSecretsResponse | null) => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: async () => {
      const path = `/staff/${segment(staff.id)}/${action}`;
      if (action === 'two-factor-reset') return adminSend('POST', path, { reason }, StaffSecretsResponseSchema);
      await adminSend('POST', path, { reason }, StaffResponseSchema);
      return null;
    },
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['staff'] });
      onDone(answer);
    },
  });
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate();
      }}
    >
      <label className="field">
        <span>{t('common.reason')}</span>
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      {mutation.error && (
        <p className="error" role="alert">
          {errorText(t, mutation.error)}
        </p>
      )}
      <div className="actions">
        <button
          type="submit"
          className="button danger"
          disabled={reason.trim().length < ADMIN_REASON_MIN || mutation.isPending}
        >
          {t('common.confirm')}
        </button>
      </div>
    </form>
  );
}

/** The authenticator URI and the recovery codes, shown this once. */
function Secrets({ secrets }: { secrets: StaffSecretsResponse }) {
  const { t } = useI18n();
  return (
    <div className="stack">
      <p className="warning">{t('staff.shownOnce', { email: secrets.staff.email })}</p>
      <label className="field">
        <span>{t('staff.otpauth')}</span>
        <input readOnly value={secrets.otpauth_uri} onFocus={(event) => event.currentTarget.select()} />
      </label>
      <p>{t('staff.recoveryCodes')}</p>
      <pre className="json">{secrets.recovery_codes.join('\n')}</pre>
    </div>
  );
}
