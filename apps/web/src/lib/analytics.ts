declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** The store reports registration, checkout and purchase to the tag manager's data layer. */
export function pushAnalytics(event: Record<string, unknown>) {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push(event);
}
