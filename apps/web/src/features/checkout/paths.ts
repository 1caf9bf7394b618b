/** The checkout, shown without the category sidebar. */
export const CHECKOUT_PATH = '/checkout';
