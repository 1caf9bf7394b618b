/**
 * Focus back where a dialog was opened from, once it closes (WCAG 2.4.3): Radix returns it only to a
 * Dialog.Trigger, and the store's dialogs open from buttons, links and addresses instead.
 */

/** The element each open dialog returns to, by the dialog's element. */
const openers = new WeakMap<Element, HTMLElement>();

/**
 * What has the focus as a dialog opens. Opened from inside another dialog (the login form's
 * "Forgot password", a notice after signing up), it returns where that dialog would have.
 */
export function focusedOpener(): HTMLElement | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body) return handedOver;
  const dialog = active.closest('[role="dialog"], [role="alertdialog"]');
  return (dialog && openers.get(dialog)) || active;
}

export function rememberOpener(dialog: Element, opener: HTMLElement | null) {
  if (opener) openers.set(dialog, opener);
}

/**
 * The opener of a dialog that has just been taken away, while the render that removed it may be
 * opening another in its place (signing up puts up the "Registration complete" notice). The focus
 * was in the removed dialog and is on the body by then, so the new one takes over its opener.
 */
let handedOver: HTMLElement | null = null;

export function forgetDialog(dialog: Element) {
  const opener = openers.get(dialog);
  if (!opener) return;
  handedOver = opener;
  // The render's commit is one task: what it opens reads this before any microtask runs.
  queueMicrotask(() => {
    if (handedOver === opener) handedOver = null;
  });
}

/** How long a closing dialog's aftermath (a navigation it started) may take the focused element away. */
const SETTLE_MS = 3000;

/** The opener, else what took its id, else the page's main region: the first that takes the focus. */
function focusBest(opener: HTMLElement | null) {
  const candidate = (opener?.isConnected ? opener : null) ?? (opener?.id ? document.getElementById(opener.id) : null);
  candidate?.focus();
  if (candidate && document.activeElement === candidate) return candidate;
  return focusPage();
}

/**
 * The page's main region takes the focus: where a dialog that led to another page (the basket's
 * checkout) leaves it, so the next Tab starts on the new page rather than back in the header.
 */
export function focusPage() {
  const main = document.getElementById('main');
  main?.focus({ preventScroll: true });
  return main;
}

/**
 * Focuses the opener; if a render replaced it (Log in becomes Profile), the element that took its
 * id; when neither can take the focus (gone, or disabled because the dialog led to its page), the
 * page's main region, so the next Tab continues from the page, not from the top. A dialog that
 * navigates (logging in opens the profile) may replace that element once more while the next page
 * renders: focus dropped to the body in those moments is placed again the same way.
 */
export function returnFocus(opener: HTMLElement | null) {
  let focused = focusBest(opener);
  const until = Date.now() + SETTLE_MS;
  const watch = setInterval(() => {
    // The page may be gone by now (a test's document torn down, a tab unloading).
    if (Date.now() > until || typeof document === 'undefined') clearInterval(watch);
    else if (document.activeElement === document.body && focused && !focused.isConnected) focused = focusBest(focused);
  }, 100);
}
