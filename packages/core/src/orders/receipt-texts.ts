import type { Locale, OrderPaymentMethod } from '@store/contract';

/** The words of a receipt (receipt-pdf.ts) in one language. `{code}` is the promo code. */
export interface ReceiptTexts {
  title: string;
  number: string;
  paidAt: string;
  method: string;
  seller: string;
  taxId: string;
  customer: string;
  product: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  subtotal: string;
  discount: string;
  total: string;
  refunded: string;
  topUp: string;
  methods: Record<OrderPaymentMethod, string>;
  note: string;
}

export const RECEIPT_TEXTS: Record<Locale, ReceiptTexts> = {
  en: {
    title: 'Receipt',
    number: 'Order number',
    paidAt: 'Paid on',
    method: 'Payment method',
    seller: 'Seller',
    taxId: 'Tax ID',
    customer: 'Customer',
    product: 'Product',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    amount: 'Amount',
    subtotal: 'Subtotal',
    discount: 'Discount (promo code {code})',
    total: 'Total paid',
    refunded: 'Refunded',
    topUp: 'Balance top-up',
    methods: {
      card: 'Bank card',
      widget: 'Bank card',
      hosted_page: 'Bank card (payment page)',
      qr: 'Instant bank transfer',
      upi: 'UPI',
      balance: 'Account balance',
    },
    note: 'Digital goods. The gift card codes are not part of this receipt: they are in your profile.',
  },
  'pt-BR': {
    title: 'Recibo',
    number: 'Número do pedido',
    paidAt: 'Pago em',
    method: 'Forma de pagamento',
    seller: 'Vendedor',
    taxId: 'Identificação fiscal',
    customer: 'Cliente',
    product: 'Produto',
    quantity: 'Qtd.',
    unitPrice: 'Preço unitário',
    amount: 'Valor',
    subtotal: 'Subtotal',
    discount: 'Desconto (cupom {code})',
    total: 'Total pago',
    refunded: 'Reembolsado',
    topUp: 'Recarga de saldo',
    methods: {
      card: 'Cartão bancário',
      widget: 'Cartão bancário',
      hosted_page: 'Cartão bancário (página de pagamento)',
      qr: 'Transferência bancária instantânea',
      upi: 'UPI',
      balance: 'Saldo da conta',
    },
    note: 'Produtos digitais. Os códigos dos cartões-presente não fazem parte deste recibo: eles estão no seu perfil.',
  },
  ru: {
    title: 'Чек',
    number: 'Номер заказа',
    paidAt: 'Дата оплаты',
    method: 'Способ оплаты',
    seller: 'Продавец',
    taxId: 'ИНН',
    customer: 'Покупатель',
    product: 'Товар',
    quantity: 'Кол-во',
    unitPrice: 'Цена',
    amount: 'Сумма',
    subtotal: 'Подытог',
    discount: 'Скидка (промокод {code})',
    total: 'Итого оплачено',
    refunded: 'Возвращено',
    topUp: 'Пополнение баланса',
    methods: {
      card: 'Банковская карта',
      widget: 'Банковская карта',
      hosted_page: 'Банковская карта (платёжная страница)',
      qr: 'Мгновенный банковский перевод',
      upi: 'UPI',
      balance: 'Баланс аккаунта',
    },
    note: 'Цифровые товары. Коды подарочных карт в чек не входят: они в вашем профиле.',
  },
  hi: {
    title: 'रसीद',
    number: 'ऑर्डर नंबर',
    paidAt: 'भुगतान की तारीख',
    method: 'भुगतान का तरीका',
    seller: 'विक्रेता',
    taxId: 'कर पहचान संख्या',
    customer: 'ग्राहक',
    product: 'उत्पाद',
    quantity: 'मात्रा',
    unitPrice: 'इकाई मूल्य',
    amount: 'राशि',
    subtotal: 'उप-योग',
    discount: 'छूट (प्रोमो कोड {code})',
    total: 'कुल भुगतान',
    refunded: 'वापस किया गया',
    topUp: 'बैलेंस टॉप-अप',
    methods: {
      card: 'बैंक कार्ड',
      widget: 'बैंक कार्ड',
      hosted_page: 'बैंक कार्ड (भुगतान पेज)',
      qr: 'तुरंत बैंक ट्रांसफ़र',
      upi: 'UPI',
      balance: 'खाते का बैलेंस',
    },
    note: 'डिजिटल सामान। गिफ़्ट कार्ड कोड इस रसीद में नहीं हैं: वे आपकी प्रोफ़ाइल में हैं।',
  },
};
