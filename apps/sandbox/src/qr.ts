import { createStaticPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';
import { minorToDecimalString } from './money.ts';

/** A QR code of `text` as a PNG, base64 (the API's QR image: media_type and content, docs/payments.md). */
export async function qrPngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
  return png.toString('base64');
}

export interface PixMerchant {
  /** The receiver's PIX key (an EVP random key, an email, a phone or a CNPJ). */
  pixKey: string;
  /** At most 25 characters; PIX codes carry it upper-cased. */
  name: string;
  /** At most 15 characters. */
  city: string;
}

/**
 * A static PIX BR Code (EMV QRCPS merchant-presented mode, with its CRC16-CCITT) for one payment,
 * made by pix-utils, which follows the Banco Central's BR Code manual; the sandbox's tests check its
 * output against the manual's published example. `txid` ties the bank transfer to the payment.
 */
export function pixPayload(merchant: PixMerchant, amountMinor: number, txid: string): string {
  const pix = createStaticPix({
    merchantName: merchant.name,
    merchantCity: merchant.city,
    pixKey: merchant.pixKey,
    // pix-utils takes the amount as a number and writes it with two decimals; a value with two
    // decimal places from an integer of minor units survives that exactly.
    transactionAmount: Number(minorToDecimalString(amountMinor)),
    txid,
  });
  if (hasError(pix)) throw new Error(`PIX payload refused: ${pix.message}`);
  return pix.toBRCode();
}

export interface UpiMerchant {
  /** The payee's virtual payment address, e.g. giftstore@sandbox. */
  vpa: string;
  name: string;
}

/** The `upi://pay` intent of NPCI's deep-linking spec: payee, amount, currency, note and reference. */
export function upiIntent(
  merchant: UpiMerchant,
  payment: { amountMinor: number; currency: string; note: string; reference: string },
): string {
  const params: Array<[string, string]> = [
    ['pa', merchant.vpa],
    ['pn', merchant.name],
    ['am', minorToDecimalString(payment.amountMinor)],
    ['cu', payment.currency],
    ['tn', payment.note.slice(0, 80)],
    ['tr', payment.reference],
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}
