import { minorToDecimalString } from './money.ts';

// The sandbox's pages speak the store's four languages, as a real provider's pages speak its
// markets'. Every text a shopper sees or hears (page titles, labels, buttons, errors, the widget's
// aria-labels) comes from here; `{name}` marks a value filled in with `fill`.

export const LANGUAGES = ['pt-BR', 'en', 'ru', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What a page falls back to when nothing says which language the shopper reads. */
export const DEFAULT_LANGUAGE: Language = 'en';

const en = {
  titleSuffix: 'Sandbox payments',
  badge: 'SANDBOX · TEST MODE',

  cardPaymentTitle: 'Card payment',
  hostedTitle: 'Pay by card',
  orderDescription: 'Order {orderId}',
  cardNumber: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvc: 'CVC',
  pay: 'Pay {amount}',
  testCards:
    'Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 3220 asks for 3-D Secure. Any future expiry, any CVC.',
  errorCardNumber: 'Enter a valid card number.',
  errorExpiry: 'Enter the expiry as MM/YY.',
  errorCvc: 'Enter the 3 or 4 digit security code.',
  errorField: 'Check this field.',
  widgetClose: 'Close',

  threeDsTitle: '3-D Secure',
  threeDsHeading: '3-D Secure check',
  threeDsText: 'Your bank asks you to confirm this payment.',
  threeDsCard: 'Card ending {last4}. In the sandbox you choose the answer.',
  threeDsPass: 'Pass the challenge',
  threeDsFail: 'Fail the challenge',
  threeDsRefused: '3-D Secure check refused',
  acsFieldsRequired: 'PaReq, MD and TermUrl are required.',
  paReqUnreadable: 'PaReq could not be read.',
  paReqNoPayment: 'PaReq and MD do not name a payment waiting for 3-D Secure.',
  termUrlWrong: 'TermUrl is not the one of this payment.',
  challengeLinkInvalid: 'This link does not name a payment waiting for 3-D Secure.',
  challengeChoose: 'Choose to pass or to fail the challenge.',
  challengeFormInvalid: 'This form does not name a payment waiting for 3-D Secure.',
  termFieldsRequired: 'PaRes and MD are required.',
  paResInvalid: 'PaRes is not a valid answer for MD.',
  returningHeading: 'Returning to the merchant',
  continue: 'Continue',
  waitingThreeDs: 'Waiting for 3-D Secure',
  openCheck: 'Open the check',

  paymentTitle: 'Payment',
  paymentSuccessful: 'Payment successful',
  closeWindow: 'You can close this window.',
  paymentFailed: 'Payment failed',
  tryAgain: 'Try again',
  reasonCardDeclined: 'The card was declined.',
  reasonInsufficientFunds: 'The card was declined: insufficient funds.',
  reasonExpiredCard: 'The card has expired.',
  reason3dsFailed: 'The 3-D Secure check failed.',
  reasonRefusedByPayer: 'The payment was refused.',
  reasonCancelledByPayer: 'The payment was cancelled.',
  reasonExpired: 'The payment expired.',
  reasonOther: 'The payment failed.',
  statusPaid: 'Paid. Thank you.',
  statusWaiting: 'Waiting for the payment.',

  instantPaymentTitle: 'Instant payment',
  payWithPix: 'Pay with PIX',
  payByTransfer: 'Pay by instant bank transfer',
  qrAlt: 'QR code of the payment',
  pixCopyPaste: 'PIX copy and paste code:',
  bankStandIn: 'This page stands in for your bank’s app.',
  confirmPayment: 'Confirm the payment',
  refuse: 'Refuse',
  paymentConfirmed: 'Payment confirmed',
  paymentRefused: 'Payment refused',
  backToStore: 'Back to the store',
  confirmOrRefuse: 'Confirm or refuse.',

  upiTitle: 'UPI payment',
  payWithUpi: 'Pay with UPI',
  openUpiApp: 'Open a UPI app',
  upiQrAlt: 'QR code of the UPI payment',
  upiStandIn: 'Or scan the code with a UPI app. This page stands in for the app’s answer:',
  upiPay: 'Pay',
  upiDecline: 'Decline',
  upiCancel: 'Cancel',
  payDeclineOrCancel: 'Pay, decline or cancel.',

  invalidRequestTitle: 'Invalid request',
  invalidPaymentRequest: 'Invalid payment request',
  badSignature: 'The request’s signature is not valid.',
  requestUnreadable: 'The payment request could not be read.',
  requestRefused: 'The payment request was refused.',
  tokenTaken: 'This token already belongs to another payment.',

  notFoundTitle: 'Not found',
  notFoundPayment: 'This payment does not exist or has expired.',
  notFoundWidget: 'This payment form does not exist or has expired.',
  noSuchPage: 'There is no such sandbox page.',
  errorTitle: 'Error',
  errorHeading: 'Something went wrong',
  errorServer: 'The sandbox failed; see its log.',
  errorRequest: 'The request could not be processed.',
};

export type MessageKey = keyof typeof en;
/** One language's texts: a key missing from, or added to, any language fails the typecheck. */
export type Messages = Record<MessageKey, string>;

const ptBR: Messages = {
  titleSuffix: 'Pagamentos sandbox',
  badge: 'SANDBOX · MODO DE TESTE',

  cardPaymentTitle: 'Pagamento com cartão',
  hostedTitle: 'Pagar com cartão',
  orderDescription: 'Pedido {orderId}',
  cardNumber: 'Número do cartão',
  expiry: 'Validade (MM/AA)',
  cvc: 'CVC',
  pay: 'Pagar {amount}',
  testCards:
    'Cartões de teste: 4242 4242 4242 4242 é aprovado, 4000 0000 0000 0002 é recusado, 4000 0000 0000 3220 pede 3-D Secure. Qualquer validade futura, qualquer CVC.',
  errorCardNumber: 'Informe um número de cartão válido.',
  errorExpiry: 'Informe a validade no formato MM/AA.',
  errorCvc: 'Informe o código de segurança de 3 ou 4 dígitos.',
  errorField: 'Verifique este campo.',
  widgetClose: 'Fechar',

  threeDsTitle: '3-D Secure',
  threeDsHeading: 'Verificação 3-D Secure',
  threeDsText: 'Seu banco pede que você confirme este pagamento.',
  threeDsCard: 'Cartão com final {last4}. Na sandbox, você escolhe a resposta.',
  threeDsPass: 'Aprovar a verificação',
  threeDsFail: 'Reprovar a verificação',
  threeDsRefused: 'Verificação 3-D Secure recusada',
  acsFieldsRequired: 'PaReq, MD e TermUrl são obrigatórios.',
  paReqUnreadable: 'Não foi possível ler o PaReq.',
  paReqNoPayment: 'PaReq e MD não indicam um pagamento aguardando 3-D Secure.',
  termUrlWrong: 'O TermUrl não é o deste pagamento.',
  challengeLinkInvalid: 'Este link não indica um pagamento aguardando 3-D Secure.',
  challengeChoose: 'Escolha aprovar ou reprovar a verificação.',
  challengeFormInvalid: 'Este formulário não indica um pagamento aguardando 3-D Secure.',
  termFieldsRequired: 'PaRes e MD são obrigatórios.',
  paResInvalid: 'O PaRes não é uma resposta válida para o MD.',
  returningHeading: 'Voltando para a loja',
  continue: 'Continuar',
  waitingThreeDs: 'Aguardando 3-D Secure',
  openCheck: 'Abrir a verificação',

  paymentTitle: 'Pagamento',
  paymentSuccessful: 'Pagamento aprovado',
  closeWindow: 'Você já pode fechar esta janela.',
  paymentFailed: 'Pagamento não realizado',
  tryAgain: 'Tentar novamente',
  reasonCardDeclined: 'O cartão foi recusado.',
  reasonInsufficientFunds: 'O cartão foi recusado: saldo insuficiente.',
  reasonExpiredCard: 'O cartão está vencido.',
  reason3dsFailed: 'A verificação 3-D Secure falhou.',
  reasonRefusedByPayer: 'O pagamento foi recusado.',
  reasonCancelledByPayer: 'O pagamento foi cancelado.',
  reasonExpired: 'O prazo do pagamento expirou.',
  reasonOther: 'O pagamento não foi concluído.',
  statusPaid: 'Pago. Obrigado!',
  statusWaiting: 'Aguardando o pagamento.',

  instantPaymentTitle: 'Pagamento instantâneo',
  payWithPix: 'Pagar com PIX',
  payByTransfer: 'Pagar por transferência bancária instantânea',
  qrAlt: 'QR code do pagamento',
  pixCopyPaste: 'Código PIX copia e cola:',
  bankStandIn: 'Esta página faz o papel do app do seu banco.',
  confirmPayment: 'Confirmar o pagamento',
  refuse: 'Recusar',
  paymentConfirmed: 'Pagamento confirmado',
  paymentRefused: 'Pagamento recusado',
  backToStore: 'Voltar para a loja',
  confirmOrRefuse: 'Confirme ou recuse o pagamento.',

  upiTitle: 'Pagamento UPI',
  payWithUpi: 'Pagar com UPI',
  openUpiApp: 'Abrir um app UPI',
  upiQrAlt: 'QR code do pagamento UPI',
  upiStandIn: 'Ou leia o código com um app UPI. Esta página faz o papel da resposta do app:',
  upiPay: 'Pagar',
  upiDecline: 'Recusar',
  upiCancel: 'Cancelar',
  payDeclineOrCancel: 'Pague, recuse ou cancele o pagamento.',

  invalidRequestTitle: 'Solicitação inválida',
  invalidPaymentRequest: 'Solicitação de pagamento inválida',
  badSignature: 'A assinatura da solicitação não é válida.',
  requestUnreadable: 'Não foi possível ler a solicitação de pagamento.',
  requestRefused: 'A solicitação de pagamento foi recusada.',
  tokenTaken: 'Este token já pertence a outro pagamento.',

  notFoundTitle: 'Não encontrado',
  notFoundPayment: 'Este pagamento não existe ou expirou.',
  notFoundWidget: 'Este formulário de pagamento não existe ou expirou.',
  noSuchPage: 'Esta página da sandbox não existe.',
  errorTitle: 'Erro',
  errorHeading: 'Algo deu errado',
  errorServer: 'A sandbox falhou; veja o log dela.',
  errorRequest: 'Não foi possível processar a solicitação.',
};

const ru: Messages = {
  titleSuffix: 'Платёжная песочница',
  badge: 'ПЕСОЧНИЦА · ТЕСТОВЫЙ РЕЖИМ',

  cardPaymentTitle: 'Оплата картой',
  hostedTitle: 'Оплата банковской картой',
  orderDescription: 'Заказ {orderId}',
  cardNumber: 'Номер карты',
  expiry: 'Срок действия (ММ/ГГ)',
  cvc: 'CVC',
  pay: 'Оплатить {amount}',
  testCards:
    'Тестовые карты: 4242 4242 4242 4242 — оплата проходит, 4000 0000 0000 0002 — отказ, 4000 0000 0000 3220 — запрос 3-D Secure. Срок действия — любой в будущем, CVC — любой.',
  errorCardNumber: 'Введите правильный номер карты.',
  errorExpiry: 'Введите срок действия в формате ММ/ГГ.',
  errorCvc: 'Введите трёх- или четырёхзначный код безопасности.',
  errorField: 'Проверьте это поле.',
  widgetClose: 'Закрыть',

  threeDsTitle: '3-D Secure',
  threeDsHeading: 'Проверка 3-D Secure',
  threeDsText: 'Ваш банк просит подтвердить этот платёж.',
  threeDsCard: 'Карта, оканчивающаяся на {last4}. В песочнице ответ выбираете вы.',
  threeDsPass: 'Пройти проверку',
  threeDsFail: 'Провалить проверку',
  threeDsRefused: 'Проверка 3-D Secure отклонена',
  acsFieldsRequired: 'Нужны PaReq, MD и TermUrl.',
  paReqUnreadable: 'Не удалось прочитать PaReq.',
  paReqNoPayment: 'PaReq и MD не указывают на платёж, ожидающий 3-D Secure.',
  termUrlWrong: 'TermUrl не совпадает с адресом этого платежа.',
  challengeLinkInvalid: 'Эта ссылка не ведёт к платежу, ожидающему 3-D Secure.',
  challengeChoose: 'Выберите, пройти проверку или провалить её.',
  challengeFormInvalid: 'Эта форма не относится к платежу, ожидающему 3-D Secure.',
  termFieldsRequired: 'Нужны PaRes и MD.',
  paResInvalid: 'PaRes не является действительным ответом для MD.',
  returningHeading: 'Возвращаемся в магазин',
  continue: 'Продолжить',
  waitingThreeDs: 'Ожидается проверка 3-D Secure',
  openCheck: 'Открыть проверку',

  paymentTitle: 'Платёж',
  paymentSuccessful: 'Оплата прошла успешно',
  closeWindow: 'Это окно можно закрыть.',
  paymentFailed: 'Оплата не прошла',
  tryAgain: 'Попробовать снова',
  reasonCardDeclined: 'Карта отклонена.',
  reasonInsufficientFunds: 'Карта отклонена: недостаточно средств.',
  reasonExpiredCard: 'Срок действия карты истёк.',
  reason3dsFailed: 'Проверка 3-D Secure не пройдена.',
  reasonRefusedByPayer: 'Платёж отклонён.',
  reasonCancelledByPayer: 'Платёж отменён.',
  reasonExpired: 'Время на оплату истекло.',
  reasonOther: 'Платёж не прошёл.',
  statusPaid: 'Оплачено. Спасибо!',
  statusWaiting: 'Ожидаем оплату.',

  instantPaymentTitle: 'Мгновенный платёж',
  payWithPix: 'Оплата через PIX',
  payByTransfer: 'Оплата через СБП',
  qrAlt: 'QR-код платежа',
  pixCopyPaste: 'Код PIX для копирования и вставки:',
  bankStandIn: 'Эта страница заменяет приложение вашего банка.',
  confirmPayment: 'Подтвердить платёж',
  refuse: 'Отклонить',
  paymentConfirmed: 'Платёж подтверждён',
  paymentRefused: 'Платёж отклонён',
  backToStore: 'Вернуться в магазин',
  confirmOrRefuse: 'Подтвердите или отклоните платёж.',

  upiTitle: 'Платёж через UPI',
  payWithUpi: 'Оплата через UPI',
  openUpiApp: 'Открыть приложение UPI',
  upiQrAlt: 'QR-код платежа UPI',
  upiStandIn: 'Или отсканируйте код в приложении UPI. Эта страница заменяет ответ приложения:',
  upiPay: 'Оплатить',
  upiDecline: 'Отклонить',
  upiCancel: 'Отменить',
  payDeclineOrCancel: 'Оплатите, отклоните или отмените платёж.',

  invalidRequestTitle: 'Неверный запрос',
  invalidPaymentRequest: 'Неверный запрос на оплату',
  badSignature: 'Подпись запроса недействительна.',
  requestUnreadable: 'Не удалось прочитать запрос на оплату.',
  requestRefused: 'Запрос на оплату отклонён.',
  tokenTaken: 'Этот токен уже принадлежит другому платежу.',

  notFoundTitle: 'Не найдено',
  notFoundPayment: 'Такого платежа нет или его срок истёк.',
  notFoundWidget: 'Такой формы оплаты нет или её срок истёк.',
  noSuchPage: 'Такой страницы в песочнице нет.',
  errorTitle: 'Ошибка',
  errorHeading: 'Что-то пошло не так',
  errorServer: 'Сбой песочницы; подробности в её журнале.',
  errorRequest: 'Не удалось обработать запрос.',
};

const hi: Messages = {
  titleSuffix: 'सैंडबॉक्स भुगतान',
  badge: 'सैंडबॉक्स · टेस्ट मोड',

  cardPaymentTitle: 'कार्ड से भुगतान',
  hostedTitle: 'कार्ड से भुगतान करें',
  orderDescription: 'ऑर्डर {orderId}',
  cardNumber: 'कार्ड नंबर',
  expiry: 'समाप्ति तिथि (MM/YY)',
  cvc: 'CVC',
  pay: '{amount} का भुगतान करें',
  testCards:
    'टेस्ट कार्ड: 4242 4242 4242 4242 से भुगतान सफल होता है, 4000 0000 0000 0002 अस्वीकार होता है, 4000 0000 0000 3220 पर 3-D Secure जाँच होती है। भविष्य की कोई भी समाप्ति तिथि और कोई भी CVC चलेगा।',
  errorCardNumber: 'मान्य कार्ड नंबर दर्ज करें।',
  errorExpiry: 'समाप्ति तिथि MM/YY के रूप में दर्ज करें।',
  errorCvc: '3 या 4 अंकों का सुरक्षा कोड दर्ज करें।',
  errorField: 'इस फ़ील्ड की जाँच करें।',
  widgetClose: 'बंद करें',

  threeDsTitle: '3-D Secure',
  threeDsHeading: '3-D Secure जाँच',
  threeDsText: 'आपका बैंक इस भुगतान की पुष्टि करने के लिए कह रहा है।',
  threeDsCard: '{last4} पर ख़त्म होने वाला कार्ड। सैंडबॉक्स में जवाब आप चुनते हैं।',
  threeDsPass: 'जाँच पास करें',
  threeDsFail: 'जाँच फ़ेल करें',
  threeDsRefused: '3-D Secure जाँच अस्वीकार हुई',
  acsFieldsRequired: 'PaReq, MD और TermUrl ज़रूरी हैं।',
  paReqUnreadable: 'PaReq पढ़ा नहीं जा सका।',
  paReqNoPayment: 'PaReq और MD किसी ऐसे भुगतान को नहीं दर्शाते जो 3-D Secure की प्रतीक्षा में हो।',
  termUrlWrong: 'TermUrl इस भुगतान का नहीं है।',
  challengeLinkInvalid: 'यह लिंक किसी ऐसे भुगतान का नहीं है जो 3-D Secure की प्रतीक्षा में हो।',
  challengeChoose: 'जाँच पास या फ़ेल करना चुनें।',
  challengeFormInvalid: 'यह फ़ॉर्म किसी ऐसे भुगतान का नहीं है जो 3-D Secure की प्रतीक्षा में हो।',
  termFieldsRequired: 'PaRes और MD ज़रूरी हैं।',
  paResInvalid: 'PaRes, MD के लिए मान्य जवाब नहीं है।',
  returningHeading: 'स्टोर पर वापस जा रहे हैं',
  continue: 'जारी रखें',
  waitingThreeDs: '3-D Secure की प्रतीक्षा है',
  openCheck: 'जाँच खोलें',

  paymentTitle: 'भुगतान',
  paymentSuccessful: 'भुगतान सफल रहा',
  closeWindow: 'अब आप यह विंडो बंद कर सकते हैं।',
  paymentFailed: 'भुगतान विफल रहा',
  tryAgain: 'फिर से कोशिश करें',
  reasonCardDeclined: 'कार्ड अस्वीकार कर दिया गया।',
  reasonInsufficientFunds: 'कार्ड अस्वीकार कर दिया गया: खाते में पर्याप्त राशि नहीं है।',
  reasonExpiredCard: 'कार्ड की वैधता समाप्त हो चुकी है।',
  reason3dsFailed: '3-D Secure जाँच विफल रही।',
  reasonRefusedByPayer: 'भुगतान अस्वीकार कर दिया गया।',
  reasonCancelledByPayer: 'भुगतान रद्द कर दिया गया।',
  reasonExpired: 'भुगतान का समय समाप्त हो गया।',
  reasonOther: 'भुगतान नहीं हो सका।',
  statusPaid: 'भुगतान हो गया। धन्यवाद!',
  statusWaiting: 'भुगतान की प्रतीक्षा है।',

  instantPaymentTitle: 'तुरंत भुगतान',
  payWithPix: 'PIX से भुगतान करें',
  payByTransfer: 'तुरंत बैंक ट्रांसफ़र से भुगतान करें',
  qrAlt: 'भुगतान का QR कोड',
  pixCopyPaste: 'PIX कॉपी-पेस्ट कोड:',
  bankStandIn: 'यह पेज आपके बैंक ऐप की जगह काम करता है।',
  confirmPayment: 'भुगतान की पुष्टि करें',
  refuse: 'अस्वीकार करें',
  paymentConfirmed: 'भुगतान की पुष्टि हो गई',
  paymentRefused: 'भुगतान अस्वीकार कर दिया गया',
  backToStore: 'स्टोर पर वापस जाएँ',
  confirmOrRefuse: 'भुगतान की पुष्टि करें या उसे अस्वीकार करें।',

  upiTitle: 'UPI भुगतान',
  payWithUpi: 'UPI से भुगतान करें',
  openUpiApp: 'UPI ऐप खोलें',
  upiQrAlt: 'UPI भुगतान का QR कोड',
  upiStandIn: 'या किसी UPI ऐप से कोड स्कैन करें। यह पेज ऐप के जवाब की जगह काम करता है:',
  upiPay: 'भुगतान करें',
  upiDecline: 'अस्वीकार करें',
  upiCancel: 'रद्द करें',
  payDeclineOrCancel: 'भुगतान करें, अस्वीकार करें या रद्द करें।',

  invalidRequestTitle: 'अमान्य अनुरोध',
  invalidPaymentRequest: 'अमान्य भुगतान अनुरोध',
  badSignature: 'अनुरोध का हस्ताक्षर मान्य नहीं है।',
  requestUnreadable: 'भुगतान अनुरोध पढ़ा नहीं जा सका।',
  requestRefused: 'भुगतान अनुरोध अस्वीकार कर दिया गया।',
  tokenTaken: 'यह टोकन पहले से किसी दूसरे भुगतान का है।',

  notFoundTitle: 'नहीं मिला',
  notFoundPayment: 'यह भुगतान मौजूद नहीं है या इसकी समय-सीमा ख़त्म हो गई है।',
  notFoundWidget: 'यह भुगतान फ़ॉर्म मौजूद नहीं है या इसकी समय-सीमा ख़त्म हो गई है।',
  noSuchPage: 'सैंडबॉक्स में ऐसा कोई पेज नहीं है।',
  errorTitle: 'त्रुटि',
  errorHeading: 'कुछ गड़बड़ हो गई',
  errorServer: 'सैंडबॉक्स में गड़बड़ी हुई; उसका लॉग देखें।',
  errorRequest: 'अनुरोध पूरा नहीं किया जा सका।',
};

export const MESSAGES: Record<Language, Messages> = { 'pt-BR': ptBR, en, ru, hi };

/** A message with its `{name}` placeholders filled in; a placeholder without a value stays as it is. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * One of the four languages from what a request or a page names: any case, `_` for `-`, and a
 * plain `pt` for Brazilian Portuguese. Anything else is no language at all, never an error: a
 * payment in a language the sandbox does not speak is still a payment.
 */
export function normaliseLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string' || value.length > 35) return undefined;
  switch (value.trim().toLowerCase().replace(/_/g, '-')) {
    case 'pt':
    case 'pt-br':
      return 'pt-BR';
    case 'en':
      return 'en';
    case 'ru':
      return 'ru';
    case 'hi':
      return 'hi';
    default:
      return undefined;
  }
}

/** The language a browser's language tag stands for: any Portuguese is Brazilian, any English is en... */
function languageOfTag(tag: string): Language | undefined {
  const primary = tag.split('-')[0];
  switch (primary) {
    case 'pt':
      return 'pt-BR';
    case 'en':
    case 'ru':
    case 'hi':
      return primary;
    default:
      return undefined;
  }
}

/** A header can be long; the first ranges say all a browser means. */
const ACCEPT_LANGUAGE_RANGES_MAX = 32;

/**
 * The Accept-Language header's best language the sandbox speaks (RFC 9110 section 12.5.4): ranges
 * by falling q-value, in the header's order where equal; q=0 (or a malformed q) rules a range out.
 */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .slice(0, ACCEPT_LANGUAGE_RANGES_MAX)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      let quality = 1;
      for (const parameter of parameters) {
        const [name = '', value = ''] = parameter.split('=').map((piece) => piece.trim());
        if (name.toLowerCase() !== 'q') continue;
        quality = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : 0;
      }
      return { tag: tag.toLowerCase(), quality, index };
    })
    .filter((range) => range.quality > 0 && range.tag.length > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const range of ranges) {
    const language = languageOfTag(range.tag);
    if (language) return language;
  }
  return undefined;
}

export type LanguageSource = 'payment' | 'query' | 'header' | 'default';

/**
 * The page's language, first match wins: the payment's own (from its request), the page URL's
 * `lang` query parameter, the browser's Accept-Language, English.
 */
export function negotiateLanguage(input: { payment?: Language | null; query?: unknown; acceptLanguage?: string }): {
  language: Language;
  source: LanguageSource;
} {
  if (input.payment) return { language: input.payment, source: 'payment' };
  const query = normaliseLanguage(Array.isArray(input.query) ? input.query[0] : input.query);
  if (query) return { language: query, source: 'query' };
  const header = fromAcceptLanguage(input.acceptLanguage);
  if (header) return { language: header, source: 'header' };
  return { language: DEFAULT_LANGUAGE, source: 'default' };
}

/** Number formats as each market writes money; Latin digits everywhere, so the output is the same on every host. */
const NUMBER_LOCALES: Record<Language, string> = { 'pt-BR': 'pt-BR', en: 'en-US', ru: 'ru-RU', hi: 'hi-IN' };
const amountFormats = new Map<string, Intl.NumberFormat>();

/** An amount in minor units as the language writes it: "R$ 150,00", "150,00 ₽", "₹1,499.00"... */
export function formatAmount(amountMinor: number, currency: string, language: Language): string {
  const key = `${language}:${currency}`;
  let format = amountFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(NUMBER_LOCALES[language], {
      style: 'currency',
      currency,
      numberingSystem: 'latn',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    amountFormats.set(key, format);
  }
  // The decimal string, not a float: every amount up to the sandbox's maximum prints exactly.
  return format.format(minorToDecimalString(amountMinor) as `${number}`);
}

/** What a page needs of its language: its texts, its amounts, and links that keep the language. */
export interface Locale {
  language: Language;
  t: Messages;
  amount(amountMinor: number, currency: string): string;
  /**
   * A sandbox URL for the page's forms, links and redirects. When the language came from the page's
   * `lang` parameter, the next page gets it too; a payment's own language and the browser's header
   * reach the next page by themselves.
   */
  link(url: string): string;
}

export function localeOf(language: Language, source: LanguageSource = 'default'): Locale {
  return {
    language,
    t: MESSAGES[language],
    amount: (amountMinor, currency) => formatAmount(amountMinor, currency, language),
    link: (url) => {
      if (source !== 'query') return url;
      const next = new URL(url);
      next.searchParams.set('lang', language);
      return next.toString();
    },
  };
}
