import {
  ADMIN_PAGE_SIZE,
  ADMIN_REASON_MIN,
  type CodeBatch,
  CodeBatchPageSchema,
  type CodeImportReport,
  CodeImportReportSchema,
  CodeWithdrawResponseSchema,
  roleMay,
} from '@store/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useSession } from '../app/use-session.ts';
import { Modal } from '../components/dialog.tsx';
import { Empty, ErrorState, Loading, Pager } from '../components/states.tsx';
import { adminGet, adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError } from '../lib/errors.ts';
import { formatDateTime, lineRanges } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { formFilters, useFilters } from '../lib/use-filters.ts';

const FILTERS = ['product_id'] as const;

/** Code stock: import per product with the duplicate report, batches with their counts, withdrawal. */
export default function StockPage() {
  const { t } = useI18n();
  const { session } = useSession();
  const role = session?.staff.role ?? 'support';
  return (
    <section className="stack">
      <div className="page-head">
        <h1>{t('stock.title')}</h1>
      </div>
      {roleMay(role, 'codes.import') && <ImportForm />}
      <Batches mayWithdraw={roleMay(role, 'codes.withdraw')} />
    </section>
  );
}

function ImportForm() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [label, setLabel] = useState('');
  const [productId, setProductId] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      adminSend(
        'POST',
        '/codes/import',
        { product_id: Number(productId), text, ...(label.trim() ? { label: label.trim() } : {}) },
        CodeImportReportSchema,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['batches'] }),
  });
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setText(await file.text());
    if (!label.trim()) setLabel(file.name.slice(0, 100));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const error = mutation.error;
  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-labelledby="import-title">
      <h2 id="import-title">{t('stock.import')}</h2>
      <div className="row">
        <label className="field">
          <span>{t('stock.productId')}</span>
          <input inputMode="numeric" value={productId} onChange={(event) => setProductId(event.target.value.trim())} />
          {fieldError(t, error, 'product_id') && (
            <small className="field-error">{fieldError(t, error, 'product_id')}</small>
          )}
        </label>
        <label className="field grow">
          <span>{t('stock.label')}</span>
          <input value={label} maxLength={100} onChange={(event) => setLabel(event.target.value)} />
        </label>
        <label className="field">
          <span>{t('stock.file')}</span>
          <input type="file" accept=".txt,.csv,text/plain" onChange={(event) => void readFile(event)} />
        </label>
      </div>
      <label className="field">
        <span>{t('stock.lines')}</span>
        <textarea
          className="codes"
          rows={8}
          value={text}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
        {fieldError(t, error, 'text') && <small className="field-error">{fieldError(t, error, 'text')}</small>}
      </label>
      {error && !fieldError(t, error, 'text') && !fieldError(t, error, 'product_id') && (
        <p className="error" role="alert">
          {errorText(t, error)}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={mutation.isPending || !text.trim() || !productId}>
          {t('stock.importButton')}
        </button>
      </div>
      {mutation.data && <ImportReport report={mutation.data} />}
    </form>
  );
}

export function ImportReport({ report }: { report: CodeImportReport }) {
  const { t } = useI18n();
  return (
    <div className="report" role="status" data-testid="import-report">
      <p>{t('stock.report.added', { count: report.added, lines: report.lines })}</p>
      {report.duplicates_in_file.length > 0 && (
        <p className="warning">
          {t('stock.report.duplicatesInFile', {
            count: report.duplicates_in_file.length,
            lines: lineRanges(report.duplicates_in_file),
          })}
        </p>
      )}
      {report.duplicates_in_stock.length > 0 && (
        <p className="warning">
          {t('stock.report.duplicatesInStock', {
            count: report.duplicates_in_stock.length,
            lines: lineRanges(report.duplicates_in_stock),
          })}
        </p>
      )}
      {report.too_long.length > 0 && (
        <p className="warning">
          {t('stock.report.tooLong', { count: report.too_long.length, lines: lineRanges(report.too_long) })}
        </p>
      )}
    </div>
  );
}

function Batches({ mayWithdraw }: { mayWithdraw: boolean }) {
  const { t, language } = useI18n();
  const { filters, page, setFilters, setPage } = useFilters(FILTERS);
  const [withdrawing, setWithdrawing] = useState<CodeBatch | null>(null);
  const params = { ...filters, page, page_size: ADMIN_PAGE_SIZE };
  const query = useQuery({
    queryKey: ['batches', params],
    queryFn: ({ signal }) => adminGet('/codes/batches', CodeBatchPageSchema, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, FILTERS));
  };
  return (
    <div className="stack">
      <h2>{t('stock.batches')}</h2>
      <form className="filters" onSubmit={submit} key={JSON.stringify(filters)} aria-label={t('common.filters')}>
        <label className="field">
          <span>{t('stock.productId')}</span>
          <input name="product_id" inputMode="numeric" defaultValue={filters.product_id} />
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
        <Empty>{t('stock.empty')}</Empty>
      ) : (
        <>
          <table className="table">
            <thead>
              <tr>
                <th>{t('stock.batch')}</th>
                <th>{t('stock.product')}</th>
                <th>{t('orders.created')}</th>
                <th className="number">{t('stock.available')}</th>
                <th className="number">{t('stock.reserved')}</th>
                <th className="number">{t('stock.sold')}</th>
                <th className="number">{t('stock.withdrawn')}</th>
                {mayWithdraw && <th />}
              </tr>
            </thead>
            <tbody>
              {query.data.items.map((batch) => (
                <tr key={batch.id}>
                  <td className="ellipsis">
                    #{batch.id} {batch.label ?? ''}
                  </td>
                  <td className="ellipsis">
                    {batch.product_name} <span className="muted">#{batch.product_id}</span>
                  </td>
                  <td>{formatDateTime(batch.created_at, language)}</td>
                  <td className="number">{batch.available}</td>
                  <td className="number">{batch.reserved}</td>
                  <td className="number">{batch.sold}</td>
                  <td className="number">{batch.withdrawn}</td>
                  {mayWithdraw && (
                    <td>
                      <button
                        type="button"
                        className="button secondary"
                        disabled={batch.available === 0}
                        onClick={() => setWithdrawing(batch)}
                      >
                        {t('stock.withdraw')}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pageSize={query.data.page_size} total={query.data.total} onPage={setPage} />
        </>
      )}
      <Modal
        open={withdrawing !== null}
        onOpenChange={(open) => !open && setWithdrawing(null)}
        title={t('stock.withdrawTitle', { batch: withdrawing?.id ?? '' })}
      >
        {withdrawing && <WithdrawForm batch={withdrawing} />}
      </Modal>
    </div>
  );
}

/** Takes a batch's unsold codes out and shows them once, to save for the supplier. */
function WithdrawForm({ batch }: { batch: CodeBatch }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      adminSend('POST', `/codes/batches/${segment(batch.id)}/withdraw`, { reason }, CodeWithdrawResponseSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['batches'] }),
  });
  if (mutation.data) {
    const file = URL.createObjectURL(new Blob([`${mutation.data.codes.join('\n')}\n`], { type: 'text/plain' }));
    return (
      <div className="stack">
        <p>{t('stock.withdrawnCount', { count: mutation.data.withdrawn })}</p>
        <p className="warning">{t('stock.shownOnce')}</p>
        <a className="button primary" href={file} download={`batch-${batch.id}-withdrawn.txt`}>
          {t('stock.download')}
        </a>
      </div>
    );
  }
  const tooShort = reason.trim().length < ADMIN_REASON_MIN;
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate();
      }}
    >
      <p>{t('stock.withdrawText', { count: batch.available })}</p>
      <label className="field">
        <span>{t('common.reason')}</span>
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
        {fieldError(t, mutation.error, 'reason') && (
          <small className="field-error">{fieldError(t, mutation.error, 'reason')}</small>
        )}
      </label>
      {mutation.error && !fieldError(t, mutation.error, 'reason') && (
        <p className="error" role="alert">
          {errorText(t, mutation.error)}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button danger" disabled={tooShort || mutation.isPending}>
          {t('stock.withdrawConfirm')}
        </button>
      </div>
    </form>
  );
}
