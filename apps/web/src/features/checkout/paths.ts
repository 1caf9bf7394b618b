/** SPEC.md section 2: the checkout, shown without the category sidebar. */
export const CHECKOUT_PATH = '/checkout';
