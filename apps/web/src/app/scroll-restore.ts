/** What the shopper does to scroll themselves: a restore in progress gives way to it. */
const TAKE_OVER = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
const RESTORE_FOR_MS = 3_000;

/**
 * Scrolls to `y`, and again each time the page grows (covers, a list's later pages, texts), until it
 * gets there, the shopper scrolls, or a few seconds pass. A single scrollTo on a page still shorter
 * than `y` lands lower down, and the scroll event of that landing would then be saved over the real
 * place; `restoring` keeps it from being saved meanwhile.
 */
export function restoreTo(y: number, restoring: { current: boolean }): () => void {
  let done = false;
  const observer = new ResizeObserver(() => attempt());
  const stop = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    for (const type of TAKE_OVER) window.removeEventListener(type, stop);
    restoring.current = false;
  };
  const attempt = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) < 2) stop();
  };
  const timer = setTimeout(stop, RESTORE_FOR_MS);
  restoring.current = true;
  for (const type of TAKE_OVER) window.addEventListener(type, stop, { passive: true });
  observer.observe(document.body);
  attempt();
  return stop;
}
