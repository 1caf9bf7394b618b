import { ADMIN_REASON_MIN, CodeRevealResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Modal } from '../components/dialog.tsx';
import { adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n.tsx';

/**
 * Shows one delivered code to the staff member, for a customer's ticket: the reason first, which
 * the audit log keeps beside who asked; the code is answered once and kept nowhere in the console.
 */
export function RevealCodeDialog({
  codeId,
  position,
  onClose,
}: {
  /** The code to reveal; null keeps the dialog closed. */
  codeId: string | null;
  /** Its place among the order's codes (1, 2, ...), as the button named it. */
  position: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Modal open={codeId !== null} onOpenChange={(open) => !open && onClose()} title={t('reveal.title', { position })}>
      {codeId && <RevealForm key={codeId} codeId={codeId} />}
    </Modal>
  );
}

function RevealForm({ codeId }: { codeId: string }) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: () => adminSend('POST', `/codes/${segment(codeId)}/reveal`, { reason }, CodeRevealResponseSchema),
  });
  if (mutation.data) {
    return (
      <div className="stack">
        <p>{t('reveal.shown')}</p>
        <output className="code" data-testid="revealed-code">
          {mutation.data.code}
        </output>
      </div>
    );
  }
  const reasonError = fieldError(t, mutation.error, 'reason');
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate();
      }}
    >
      <p>{t('reveal.text')}</p>
      <label className="field">
        <span>{t('common.reason')}</span>
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
        {reasonError && <small className="field-error">{reasonError}</small>}
      </label>
      {mutation.error && !reasonError && (
        <p className="error" role="alert">
          {errorText(t, mutation.error)}
        </p>
      )}
      <div className="actions">
        <button
          type="submit"
          className="button primary"
          disabled={reason.trim().length < ADMIN_REASON_MIN || mutation.isPending}
        >
          {t('reveal.confirm')}
        </button>
      </div>
    </form>
  );
}
