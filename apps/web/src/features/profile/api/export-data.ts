import { AccountExportSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** GET /profile/export (docs/api.md, "Accounts and profile"): everything the store holds about the customer. */
export const getAccountData = () => apiGet('/profile/export', AccountExportSchema);

/**
 * Fetches the export and hands it to the browser as a file: the call needs the bearer token, which a
 * plain link cannot send, so the file is made here from the answer.
 */
export async function downloadAccountData(): Promise<void> {
  const data = await getAccountData();
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `account-data-${data.exported_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const useDownloadAccountData = () => useMutation({ mutationFn: downloadAccountData });
