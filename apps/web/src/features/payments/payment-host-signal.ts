/**
 * What the first download needs to know of the payment dialogs, and no more (the home route's
 * JavaScript has a budget): the event a dialog's opening fires, and whether Index carries a
 * return-from-payment parameter (paymentConfirmOrder, showModal, paymentConfirmBalance:
 * docs/payments.md, "How the browser goes on").
 */
export const PAYMENT_DIALOG_EVENT = 'payment-dialog';

export const hasPaymentReturn = (search: string) =>
  /[?&](paymentConfirmOrder|showModal|paymentConfirmBalance)=/.test(search);
