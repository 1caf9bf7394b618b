import {
  ADMIN_PAGE_SIZE,
  ADMIN_REASON_MIN,
  type AdminPromo,
  AdminPromoPageSchema,
  AdminPromoResponseSchema,
  PROMO_CODE_MAX,
} from '@store/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Modal } from '../components/dialog.tsx';
import { Empty, ErrorState, Loading, Pager } from '../components/states.tsx';
import { adminGet, adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError } from '../lib/errors.ts';
import { formatDateTime } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { formFilters, useFilters } from '../lib/use-filters.ts';

const FILTERS = ['q', 'active'] as const;

/** Promo codes: search, a new code, and a code stopped with a reason. */
export default function PromoCodesPage() {
  const { t } = useI18n();
  return (
    <section className="stack">
      <div className="page-head">
        <h1>{t('promo.title')}</h1>
      </div>
      <CreateForm />
      <PromoList />
    </section>
  );
}

/** Comma- or space-separated words of a field, blanks dropped. */
const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function CreateForm() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ code: '', percent: '', until: '', maxUses: '', categories: '', products: '' });
  const set = (key: keyof typeof draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));
  const mutation = useMutation({
    mutationFn: () =>
      adminSend(
        'POST',
        '/promo-codes',
        {
          code: draft.code,
          percent: Number(draft.percent),
          valid_until: draft.until || null,
          max_uses: draft.maxUses.trim() ? Number(draft.maxUses) : null,
          categories: words(draft.categories),
          product_ids: words(draft.products).map(Number),
        },
        AdminPromoResponseSchema,
      ),
    onSuccess: async () => {
      setDraft({ code: '', percent: '', until: '', maxUses: '', categories: '', products: '' });
      await queryClient.invalidateQueries({ queryKey: ['promo-codes'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const error = mutation.error;
  const FIELDS = [
    ['code', 'code', 'promo.code'],
    ['percent', 'percent', 'promo.percent'],
    ['until', 'valid_until', 'promo.until'],
    ['maxUses', 'max_uses', 'promo.maxUses'],
    ['categories', 'categories', 'promo.categories'],
    ['products', 'product_ids', 'promo.products'],
  ] as const;
  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-labelledby="promo-new">
      <h2 id="promo-new">{t('promo.new')}</h2>
      <div className="row">
        {FIELDS.map(([key, field, label]) => (
          <label key={key} className={key === 'categories' || key === 'products' ? 'field grow' : 'field'}>
            <span>{t(label)}</span>
            <input
              value={draft[key]}
              onChange={set(key)}
              type={key === 'until' ? 'date' : 'text'}
              inputMode={key === 'percent' || key === 'maxUses' ? 'numeric' : undefined}
              maxLength={key === 'code' ? PROMO_CODE_MAX : undefined}
            />
            {fieldError(t, error, field) && <small className="field-error">{fieldError(t, error, field)}</small>}
          </label>
        ))}
      </div>
      <div className="actions">
        <button type="submit" className="button primary" disabled={mutation.isPending}>
          {t('promo.create')}
        </button>
        {mutation.isError && (
          <p className="error" role="alert">
            {errorText(t, error)}
          </p>
        )}
        {mutation.isSuccess && (
          <p className="notice" role="status">
            {t('promo.created', { code: mutation.data.promo.code })}
          </p>
        )}
      </div>
    </form>
  );
}

function PromoList() {
  const { t, language } = useI18n();
  const { filters, page, setFilters, setPage } = useFilters(FILTERS);
  const [stopping, setStopping] = useState<AdminPromo | null>(null);
  const params = { ...filters, page, page_size: ADMIN_PAGE_SIZE };
  const query = useQuery({
    queryKey: ['promo-codes', params],
    queryFn: ({ signal }) => adminGet('/promo-codes', AdminPromoPageSchema, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, FILTERS));
  };
  return (
    <div>
      <form className="filters" onSubmit={submit} key={JSON.stringify(filters)} aria-label={t('common.filters')}>
        <label className="field grow">
          <span>{t('promo.search')}</span>
          <input name="q" type="search" defaultValue={filters.q} />
        </label>
        <label className="field">
          <span>{t('promo.state')}</span>
          <select name="active" defaultValue={filters.active}>
            <option value="">{t('common.all')}</option>
            <option value="true">{t('promo.active')}</option>
            <option value="false">{t('promo.inactive')}</option>
          </select>
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary">
            {t('common.search')}
          </button>
        </div>
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <Empty>{t('promo.empty')}</Empty>
      ) : (
        <>
          <table className="table">
            <thead>
              <tr>
                <th>{t('promo.code')}</th>
                <th className="number">{t('promo.percent')}</th>
                <th>{t('promo.scope')}</th>
                <th>{t('promo.until')}</th>
                <th className="number">{t('promo.uses')}</th>
                <th>{t('promo.state')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {query.data.items.map((promo) => (
                <tr key={promo.id}>
                  <td>{promo.code}</td>
                  <td className="number">{promo.percent}%</td>
                  <td className="ellipsis">
                    {[...promo.categories, ...promo.product_ids.map((id) => `#${id}`)].join(', ') ||
                      t('promo.everything')}
                  </td>
                  <td>{promo.valid_until ? formatDateTime(promo.valid_until, language) : '—'}</td>
                  <td className="number">
                    {promo.max_uses === null ? promo.used_count : `${promo.used_count} / ${promo.max_uses}`}
                  </td>
                  <td>{t(`promo.status.${promo.status}`)}</td>
                  <td>
                    {promo.is_active && (
                      <button type="button" className="button secondary" onClick={() => setStopping(promo)}>
                        {t('promo.deactivate')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pageSize={query.data.page_size} total={query.data.total} onPage={setPage} />
        </>
      )}
      <Modal
        open={stopping !== null}
        onOpenChange={(open) => !open && setStopping(null)}
        title={t('promo.deactivateTitle', { code: stopping?.code ?? '' })}
      >
        {stopping && <DeactivateForm promo={stopping} onDone={() => setStopping(null)} />}
      </Modal>
    </div>
  );
}

function DeactivateForm({ promo, onDone }: { promo: AdminPromo; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      adminSend('POST', `/promo-codes/${segment(promo.id)}/deactivate`, { reason }, AdminPromoResponseSchema),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['promo-codes'] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <label className="field">
        <span>{t('common.reason')}</span>
        <textarea value={reason} minLength={ADMIN_REASON_MIN} onChange={(event) => setReason(event.target.value)} />
        {fieldError(t, mutation.error, 'reason') && (
          <small className="field-error">{fieldError(t, mutation.error, 'reason')}</small>
        )}
      </label>
      <div className="actions">
        <button type="submit" className="button danger" disabled={mutation.isPending}>
          {t('promo.deactivate')}
        </button>
      </div>
    </form>
  );
}
