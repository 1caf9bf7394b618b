import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { orderNumber } from '@store/contract';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { ReceiptSource } from './order-history.ts';
import { RECEIPT_TEXTS } from './receipt-texts.ts';

/** Who sells: the store's legal name and tax id, from configuration (STORE_LEGAL_NAME, STORE_TAX_ID). */
export interface ReceiptSeller {
  legalName: string;
  taxId: string;
}

/**
 * The receipt's typeface: Noto Sans (SIL Open Font License), in the subsets the store's languages
 * write with, regular and bold. Each subset is a font of its own, so text is drawn in runs, each in
 * the first subset that has its letters; marks and joiners stay with the letter before them, so
 * Devanagari's conjuncts are shaped within one font.
 */
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'devanagari'] as const;
const WEIGHTS = { regular: 400, bold: 700 } as const;
type Weight = keyof typeof WEIGHTS;

interface Face {
  name: string;
  data: Buffer;
  font: fontkit.Font;
}

let faces: Record<Weight, Face[]> | undefined;

/** Read once, on the first receipt: a process that makes none never loads them. */
function loadFaces(): Record<Weight, Face[]> {
  if (faces) return faces;
  const require = createRequire(import.meta.url);
  const load = (weight: Weight): Face[] =>
    SUBSETS.map((subset) => {
      const data = readFileSync(
        require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${WEIGHTS[weight]}-normal.woff`),
      );
      const font = fontkit.create(data);
      if (!('hasGlyphForCodePoint' in font)) throw new Error(`noto-sans ${subset} is a font collection`);
      return { name: `${subset}-${weight}`, data, font };
    });
  faces = { regular: load('regular'), bold: load('bold') };
  return faces;
}

interface Run {
  face: Face;
  text: string;
}

/** Marks, joiners (ZWNJ, ZWJ) and spaces: they stay in the run of the letter before them. */
const STICKY = /^(?:\p{M}|\u200c|\u200d|\s)$/u;

/** `text` in runs of one face each (see SUBSETS). */
function runsOf(text: string, list: Face[]): Run[] {
  const runs: Run[] = [];
  // A narrow no-break space (some languages' money) is in none of the subsets: a no-break space is.
  for (const char of text.replace(/\u202f/g, '\u00a0')) {
    const codePoint = char.codePointAt(0) ?? 0;
    const current = runs.at(-1);
    const face =
      current && STICKY.test(char) && current.face.font.hasGlyphForCodePoint(codePoint)
        ? current.face
        : (list.find((candidate) => candidate.font.hasGlyphForCodePoint(codePoint)) ?? (list[0] as Face));
    if (current && current.face === face) current.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}

const PAGE_MARGIN = 50;
const INK = '#1f2937';
const MUTED = '#6b7280';
const ACCENT = '#4f46e5';

/**
 * Money as the store's pages write it (docs/currency.md): the currency's ISO code and the amount,
 * thousands parted by a no-break space in every language ("BRL 1 234,90"), so the receipt reads as
 * the order's page does.
 */
function moneyFormatter(locale: string, currency: string) {
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    useGrouping: 'always',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  // Display only: the division never feeds arithmetic.
  return (minor: number) =>
    format
      .formatToParts(minor / 100)
      .map((part) => (part.type === 'group' ? '\u00a0' : part.value))
      .join('')
      .replace(/\u202f/g, '\u00a0');
}

/** Fills `{code}`-style placeholders of the receipt's texts. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);

/**
 * A paid order's receipt as a PDF, in the customer's language: the seller's legal name and tax id,
 * the order's number, when and how it was paid, its lines with their unit prices and quantities, the
 * discount, the total and what went back. It holds no gift-card code: none is passed in.
 */
export async function renderReceiptPdf(source: ReceiptSource, seller: ReceiptSeller): Promise<Buffer> {
  const { locale, order, customer, card } = source;
  const texts = RECEIPT_TEXTS[locale];
  const faceSets = loadFaces();
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: {
      Title: `${texts.title} ${order.number}`,
      Author: seller.legalName,
      Producer: seller.legalName,
      Creator: seller.legalName,
    },
    lang: locale,
  });
  for (const weight of Object.keys(faceSets) as Weight[]) {
    for (const face of faceSets[weight]) doc.registerFont(face.name, face.data);
  }
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const money = moneyFormatter(locale, order.currency);
  const left = PAGE_MARGIN;
  const width = doc.page.width - PAGE_MARGIN * 2;

  /** Text that may wrap, from (x, y) in `boxWidth`; answers the y under it. */
  function paragraph(
    text: string,
    x: number,
    y: number,
    boxWidth: number,
    { size = 10, weight = 'regular', color = INK }: { size?: number; weight?: Weight; color?: string } = {},
  ): number {
    const runs = runsOf(text, faceSets[weight]);
    doc.fillColor(color).fontSize(size);
    runs.forEach((run, index) => {
      doc.font(run.face.name);
      const options = { width: boxWidth, continued: index < runs.length - 1, lineGap: 2 };
      if (index === 0) doc.text(run.text, x, y, options);
      else doc.text(run.text, options);
    });
    return doc.y;
  }

  /** One line of text, not wrapped, its right end at `right` when aligned right. */
  function cell(
    text: string,
    x: number,
    y: number,
    { size = 10, weight = 'regular', color = INK, alignRight = false } = {} as {
      size?: number;
      weight?: Weight;
      color?: string;
      alignRight?: boolean;
    },
  ) {
    const runs = runsOf(text, faceSets[weight]);
    doc.fillColor(color).fontSize(size);
    const widths = runs.map((run) => doc.font(run.face.name).widthOfString(run.text));
    let at = alignRight ? x - widths.reduce((sum, each) => sum + each, 0) : x;
    runs.forEach((run, index) => {
      doc.font(run.face.name).text(run.text, at, y, { lineBreak: false });
      at += widths[index] ?? 0;
    });
  }

  // The seller and the receipt's title.
  let y = PAGE_MARGIN;
  y = paragraph(seller.legalName, left, y, width, { size: 16, weight: 'bold', color: ACCENT });
  y = paragraph(`${texts.taxId}: ${seller.taxId}`, left, y + 2, width, { size: 9, color: MUTED });
  y = paragraph(`${texts.title} ${order.number}`, left, y + 18, width, { size: 20, weight: 'bold' });

  // What, when, how, to whom.
  // As the store's pages write a date, in UTC (the customer's own zone is not known here); Hindi's
  // 12-hour form would put a Latin "pm" in the sentence, so it takes the 24-hour one, as the pages do.
  const paidAt = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    ...(locale === 'hi' ? { hourCycle: 'h23' as const } : {}),
  }).format(new Date(order.paid_at));
  const method = order.method ? texts.methods[order.method] : '';
  const cardText = card.last4 ? ` · ${card.brand ? `${card.brand} ` : ''}•••• ${card.last4}` : '';
  const facts: Array<[string, string]> = [
    [texts.number, orderNumber(order.id)],
    [texts.paidAt, `${paidAt} UTC`],
    ...(method ? [[texts.method, `${method}${cardText}`] as [string, string]] : []),
    [texts.seller, seller.legalName],
    [texts.customer, customer.name.trim() ? `${customer.name.trim()} <${customer.email}>` : customer.email],
  ];
  y += 12;
  const labelWidth = 150;
  for (const [label, value] of facts) {
    cell(label, left, y, { color: MUTED });
    y = Math.max(paragraph(value, left + labelWidth, y, width - labelWidth), y + 14) + 4;
  }

  // The lines: product, quantity, unit price, amount.
  const columns = { quantity: left + width - 190, unitPrice: left + width - 90, amount: left + width };
  const nameWidth = columns.quantity - left - 50;
  y += 14;
  cell(texts.product, left, y, { weight: 'bold', size: 9, color: MUTED });
  cell(texts.quantity, columns.quantity, y, { weight: 'bold', size: 9, color: MUTED, alignRight: true });
  cell(texts.unitPrice, columns.unitPrice, y, { weight: 'bold', size: 9, color: MUTED, alignRight: true });
  cell(texts.amount, columns.amount, y, { weight: 'bold', size: 9, color: MUTED, alignRight: true });
  y += 16;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor('#d1d5db')
    .stroke();
  y += 8;
  const lines =
    order.lines.length > 0
      ? order.lines.map((line) => ({ name: line.name, quantity: line.quantity, unitPriceMinor: line.unit_price_minor }))
      : [{ name: texts.topUp, quantity: 1, unitPriceMinor: order.total_minor }];
  for (const line of lines) {
    const top = y;
    const bottom = paragraph(line.name, left, top, nameWidth);
    cell(String(line.quantity), columns.quantity, top, { alignRight: true });
    cell(money(line.unitPriceMinor), columns.unitPrice, top, { alignRight: true });
    cell(money(line.unitPriceMinor * line.quantity), columns.amount, top, { alignRight: true });
    y = Math.max(bottom, top + 14) + 6;
  }
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor('#d1d5db')
    .stroke();
  y += 10;

  // The sums.
  const sums: Array<[string, string, Weight]> = [];
  if (order.discount_minor > 0) {
    sums.push([texts.subtotal, money(order.subtotal_minor), 'regular']);
    sums.push([fill(texts.discount, { code: order.promo_code ?? '' }), `−${money(order.discount_minor)}`, 'regular']);
  }
  sums.push([texts.total, money(order.total_minor), 'bold']);
  if (order.refunded_minor > 0) sums.push([texts.refunded, money(order.refunded_minor), 'regular']);
  for (const [label, value, weight] of sums) {
    cell(label, columns.amount - 100, y, { weight, size: weight === 'bold' ? 12 : 10, alignRight: true });
    cell(value, columns.amount, y, { weight, size: weight === 'bold' ? 12 : 10, alignRight: true });
    y += weight === 'bold' ? 20 : 16;
  }

  paragraph(texts.note, left, y + 24, width, { size: 9, color: MUTED });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The receipt's file name: the order's number, the same in every language. */
export const receiptFileName = (orderId: string) => `receipt-${orderNumber(orderId)}.pdf`;
