import { ADMIN_PAGE_SIZE, AUDIT_ACTIONS, AUDIT_TARGET_TYPES, AuditPageSchema } from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Empty, ErrorState, Loading, Pager } from '../components/states.tsx';
import { adminGet } from '../lib/api.ts';
import { formatDateTime } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { formFilters, useFilters } from '../lib/use-filters.ts';

const FILTERS = ['action', 'target_type', 'target_id', 'from', 'to'] as const;

/** Every staff action, newest first: who, in which role, what, to what, before and after. */
export default function AuditPage() {
  const { t, language } = useI18n();
  const { filters, page, setFilters, setPage } = useFilters(FILTERS);
  const params = { ...filters, page, page_size: ADMIN_PAGE_SIZE };
  const query = useQuery({
    queryKey: ['audit', params],
    queryFn: ({ signal }) => adminGet('/audit', AuditPageSchema, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, FILTERS));
  };

  return (
    <section>
      <div className="page-head">
        <h1>{t('audit.title')}</h1>
      </div>
      <form className="filters" onSubmit={submit} key={JSON.stringify(filters)} aria-label={t('common.filters')}>
        <label className="field">
          <span>{t('audit.action')}</span>
          <select name="action" defaultValue={filters.action}>
            <option value="">{t('common.all')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`auditAction.${action.replace('.', '_')}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('audit.targetType')}</span>
          <select name="target_type" defaultValue={filters.target_type}>
            <option value="">{t('common.all')}</option>
            {AUDIT_TARGET_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`auditTarget.${type}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('audit.targetId')}</span>
          <input name="target_id" defaultValue={filters.target_id} />
        </label>
        <label className="field">
          <span>{t('common.from')}</span>
          <input name="from" type="date" defaultValue={filters.from} />
        </label>
        <label className="field">
          <span>{t('common.to')}</span>
          <input name="to" type="date" defaultValue={filters.to} />
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
        <Empty>{t('audit.empty')}</Empty>
      ) : (
        <>
          <table className="table" data-testid="audit-table">
            <thead>
              <tr>
                <th>{t('audit.when')}</th>
                <th>{t('audit.who')}</th>
                <th>{t('audit.action')}</th>
                <th>{t('audit.target')}</th>
                <th>{t('audit.change')}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.items.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.at, language)}</td>
                  <td className="ellipsis">
                    {entry.staff_email ?? t('audit.commandLine')}
                    <br />
                    <span className="muted">{t(`roles.${entry.role}`)}</span>
                  </td>
                  <td>{t(`auditAction.${entry.action.replace('.', '_')}`)}</td>
                  <td className="ellipsis">
                    {t(`auditTarget.${entry.target_type}`)} {entry.target_id ?? ''}
                  </td>
                  <td>
                    {entry.before !== null || entry.after !== null ? (
                      <details>
                        <summary>{t('audit.details')}</summary>
                        <pre className="json">
                          {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
                        </pre>
                        <p className="muted">{[entry.ip, entry.request_id].filter(Boolean).join(' · ')}</p>
                      </details>
                    ) : (
                      <span className="muted">{[entry.ip, entry.request_id].filter(Boolean).join(' · ')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pageSize={query.data.page_size} total={query.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
