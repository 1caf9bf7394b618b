/**
 * The basket's keys in local storage, here rather than in the basket feature because the session
 * store clears them too: setting the user to empty clears the stored user and basket.
 */
export const BASKET_STORAGE_KEY = 'basket';
export const BASKET_QUEUE_STORAGE_KEY = 'basket send list';
