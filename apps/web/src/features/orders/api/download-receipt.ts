import { segment } from '../../../lib/api-client.ts';
import { getToken } from '../../../lib/session-store.ts';

/**
 * GET /profile/orders/{id}/receipt, saved as the file the answer names. The call needs the bearer
 * token, which a plain link cannot send: the PDF is fetched, then handed to the browser to save.
 */
export async function downloadReceipt(orderId: string, fallbackName: string): Promise<void> {
  const token = getToken();
  // The API's base path written out: the first download's code exports nothing more for this call.
  const response = await fetch(`/api/profile/orders/${segment(orderId)}/receipt`, {
    headers: {
      Accept: 'application/pdf',
      'X-Requested-With': 'XMLHttpRequest',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
  if (!response.ok) throw new Error(`receipt: ${response.status}`);
  const blob = await response.blob();
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the file from the URL after the click: it is let go a while later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
