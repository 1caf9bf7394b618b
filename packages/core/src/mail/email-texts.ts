import type { Locale, NoticeTemplate, TokenEmailTemplate } from '@store/contract';

/** What differs between templates: the subject, the one sentence of why, the button. */
export interface TemplateTexts {
  subject: string;
  intro: string;
  button: string;
}

/** What every message says around it. `{name}`, `{duration}` and `{store}` are filled in by the renderer. */
export interface CommonTexts {
  greeting: string;
  greetingNoName: string;
  linkHint: string;
  expiry: string;
  ignore: string;
  signoff: string;
  footer: string;
  /** Unit names by `Intl.PluralRules` category, as they read inside `expiry`. */
  units: Record<'minute' | 'hour' | 'day', Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;
}

/**
 * A notice tells of something done: in place of the link's lifetime and "just ignore this" it says
 * what to do if the reader did not do it (and, for the one whose link undoes it, for how long:
 * `{duration}`).
 */
export interface NoticeTexts extends TemplateTexts {
  closing: string;
}

/**
 * The receipt of a completed order. `{order}`, `{total}`, `{refund}`, `{name}`, `{quantity}` and
 * `{delivered}` are filled in by the renderer. It never holds a code: it sends the customer to the
 * profile, where codes are shown to their owner only.
 */
export interface ReceiptTexts {
  subject: string;
  intro: string;
  button: string;
  linesTitle: string;
  line: string;
  lineShort: string;
  total: string;
  partialRefund: string;
  fullRefund: string;
  codesHint: string;
  /** Where the receipt is: a PDF on the order's page, which the button opens. */
  receiptHint: string;
}

/**
 * The balance notices. `{order}`, `{amount}` and `{balance}` are filled in by the renderer. Like the
 * receipt, they link to the profile and never hold a code.
 */
export interface BalanceTexts {
  topupSubject: string;
  topupIntro: string;
  refundSubject: string;
  orderRefundedIntro: string;
  /** A second payment of an order paid already, on its way back to its card: no balance moved. */
  paidTwiceSubject: string;
  paidTwiceIntro: string;
  /** A payment that came after its order closed, whose promo code is gone, on its way back to its card. */
  lateReturnedSubject: string;
  lateReturnedIntro: string;
  balanceNow: string;
  button: string;
}

export interface LocaleTexts {
  common: CommonTexts;
  templates: Record<TokenEmailTemplate, TemplateTexts> & Record<NoticeTemplate, NoticeTexts>;
  receipt: ReceiptTexts;
  balance: BalanceTexts;
}

export const STORE_NAME = 'Giftstore';

export const EMAIL_TEXTS: Record<Locale, LocaleTexts> = {
  en: {
    common: {
      greeting: 'Hello, {name}!',
      greetingNoName: 'Hello!',
      linkHint: 'If the button does not work, copy this link into your browser:',
      expiry: 'The link works for {duration}.',
      ignore: 'If you did not ask for this, just ignore this email: nothing will change.',
      signoff: 'The {store} team',
      footer: 'This is an automatic message, please do not reply to it.',
      units: {
        minute: { one: 'minute', other: 'minutes' },
        hour: { one: 'hour', other: 'hours' },
        day: { one: 'day', other: 'days' },
      },
    },
    templates: {
      'account-activation': {
        subject: 'Activate your {store} account',
        intro: 'Thank you for signing up at {store}. Confirm that this address is yours to activate your account.',
        button: 'Activate account',
      },
      'email-verify': {
        subject: 'Confirm your email address',
        intro: 'Please confirm your email address so that we can send your gift card codes and receipts to it.',
        button: 'Confirm email',
      },
      'password-reset': {
        subject: 'Reset your {store} password',
        intro:
          'We received a request to reset the password of your {store} account. Click the button below to choose a new one.',
        button: 'Choose a new password',
      },
      'email-change': {
        subject: 'Confirm your new email address',
        intro:
          'You asked to change the email address of your {store} account to this one. Confirm the change to start using it.',
        button: 'Confirm new email',
      },
      'password-change': {
        subject: 'Confirm your password change',
        intro:
          'You asked to change the password of your {store} account. Confirm the change to apply your new password.',
        button: 'Confirm password change',
      },
      'back-in-stock-confirm': {
        subject: 'Confirm your back-in-stock alert at {store}',
        intro:
          'Someone asked {store} to write to this address once, when a sold-out product is back in stock. Confirm that the address is yours and that you want that email.',
        button: 'Confirm the alert',
      },
      'email-changed': {
        subject: 'The email address of your {store} account was changed',
        intro:
          'The email address of your {store} account has just been changed to another one. From now on we write to the new address, and this one no longer signs in to the account.',
        button: 'Undo the change',
        closing:
          'If you made this change, there is nothing more to do. If you did not, the button above gives the account this address back and signs it out on every device; then you choose a new password. The button works for {duration}.',
      },
      'email-in-use': {
        subject: 'Someone tried to use your email address at {store}',
        intro:
          'Someone asked to move another {store} account to this email address. It already belongs to your account, so nothing was changed and nobody else can use it.',
        button: 'Open the store',
        closing:
          'If this was you, sign in with this address instead. If not, just ignore this email: your account has not changed.',
      },
      'back-in-stock': {
        subject: 'Back in stock at {store}',
        intro: 'The product you asked us to watch is back in stock at {store}. Codes of a popular card sell out fast.',
        button: 'See the product',
        closing: 'We wrote once, as you asked; to hear again, ask again on the product page.',
      },
    },
    receipt: {
      subject: 'Your {store} order {order}',
      intro: 'Thank you for your purchase! Your order is complete and your codes are waiting in your profile.',
      button: 'Open my order',
      linesTitle: 'What you bought:',
      line: '{name} × {quantity}',
      lineShort: '{name}: {delivered} of {quantity} delivered',
      total: 'Total paid: {total}',
      partialRefund:
        'Some of the codes ran out before we could deliver them. We returned {refund} to your balance at once; you can spend it on your next purchase.',
      fullRefund:
        'The codes ran out before we could deliver them. We returned the whole amount, {refund}, to your balance at once; you can spend it on your next purchase.',
      codesHint: 'For your safety, codes are never sent by email: open your profile to see and copy them.',
      receiptHint: 'The receipt of this order, as a PDF, is on the order’s page.',
    },
    balance: {
      topupSubject: 'Your {store} balance was topped up',
      topupIntro: 'We received the payment of your top-up {order}: {amount} was added to your balance.',
      refundSubject: 'Money returned to your {store} balance',
      orderRefundedIntro: 'We refunded your order {order}: {amount} went back to your balance.',
      paidTwiceSubject: 'Your second payment for order {order} is on its way back',
      paidTwiceIntro:
        'Your order {order} had already been paid, so we did not keep your second payment of {amount}: we are returning it to the card or account it came from. Your bank shows it within a few days.',
      lateReturnedSubject: 'Your payment for order {order} is on its way back',
      lateReturnedIntro:
        'Your payment of {amount} for order {order} came after the order had closed, and its promo code has been used since, so we could not complete it at that price: we are returning the money to the card or account it came from. Your bank shows it within a few days.',
      balanceNow: 'Your balance is now {balance}. You can spend it on your next purchase.',
      button: 'Open my profile',
    },
  },
  'pt-BR': {
    common: {
      greeting: 'Olá, {name}!',
      greetingNoName: 'Olá!',
      linkHint: 'Se o botão não funcionar, copie este link e cole no seu navegador:',
      expiry: 'O link é válido por {duration}.',
      ignore: 'Se não foi você que fez este pedido, ignore este e-mail: nada será alterado.',
      signoff: 'Equipe {store}',
      footer: 'Esta é uma mensagem automática, por favor não responda.',
      units: {
        minute: { one: 'minuto', other: 'minutos' },
        hour: { one: 'hora', other: 'horas' },
        day: { one: 'dia', other: 'dias' },
      },
    },
    templates: {
      'account-activation': {
        subject: 'Ative sua conta na {store}',
        intro: 'Obrigado por se cadastrar na {store}. Confirme que este endereço é seu para ativar sua conta.',
        button: 'Ativar conta',
      },
      'email-verify': {
        subject: 'Confirme seu endereço de e-mail',
        intro:
          'Confirme seu endereço de e-mail para que possamos enviar para ele os códigos dos seus cartões-presente e os recibos.',
        button: 'Confirmar e-mail',
      },
      'password-reset': {
        subject: 'Redefina sua senha da {store}',
        intro:
          'Recebemos um pedido para redefinir a senha da sua conta na {store}. Clique no botão abaixo para escolher uma nova.',
        button: 'Escolher nova senha',
      },
      'email-change': {
        subject: 'Confirme seu novo endereço de e-mail',
        intro:
          'Você pediu para alterar o e-mail da sua conta na {store} para este endereço. Confirme a alteração para começar a usá-lo.',
        button: 'Confirmar novo e-mail',
      },
      'password-change': {
        subject: 'Confirme a alteração da sua senha',
        intro:
          'Você pediu para alterar a senha da sua conta na {store}. Confirme a alteração para que a nova senha passe a valer.',
        button: 'Confirmar alteração de senha',
      },
      'back-in-stock-confirm': {
        subject: 'Confirme seu aviso de volta ao estoque na {store}',
        intro:
          'Alguém pediu à {store} que escrevesse para este endereço uma vez, quando um produto esgotado voltar ao estoque. Confirme que o endereço é seu e que você quer esse e-mail.',
        button: 'Confirmar o aviso',
      },
      'email-changed': {
        subject: 'O e-mail da sua conta na {store} foi alterado',
        intro:
          'O endereço de e-mail da sua conta na {store} acabou de ser alterado para outro. A partir de agora escrevemos para o novo endereço, e este não permite mais entrar na conta.',
        button: 'Desfazer a alteração',
        closing:
          'Se foi você que fez a alteração, não é preciso fazer mais nada. Se não foi, o botão acima devolve este endereço à conta e a desconecta em todos os dispositivos; depois você escolhe uma nova senha. O botão é válido por {duration}.',
      },
      'email-in-use': {
        subject: 'Alguém tentou usar seu e-mail na {store}',
        intro:
          'Alguém pediu para transferir outra conta da {store} para este endereço de e-mail. Ele já pertence à sua conta, por isso nada foi alterado e ninguém mais pode usá-lo.',
        button: 'Abrir a loja',
        closing: 'Se foi você, entre com este endereço. Se não foi, ignore este e-mail: sua conta não foi alterada.',
      },
      'back-in-stock': {
        subject: 'De volta ao estoque na {store}',
        intro:
          'O produto que você pediu para acompanharmos voltou ao estoque na {store}. Os códigos de um cartão popular esgotam rápido.',
        button: 'Ver o produto',
        closing: 'Escrevemos uma vez, como você pediu; para ser avisado de novo, peça novamente na página do produto.',
      },
    },
    receipt: {
      subject: 'Seu pedido {order} na {store}',
      intro: 'Obrigado pela compra! Seu pedido foi concluído e seus códigos estão esperando no seu perfil.',
      button: 'Abrir meu pedido',
      linesTitle: 'O que você comprou:',
      line: '{name} × {quantity}',
      lineShort: '{name}: {delivered} de {quantity} entregues',
      total: 'Total pago: {total}',
      partialRefund:
        'Alguns códigos se esgotaram antes da entrega. Devolvemos {refund} ao seu saldo na hora; você pode usá-lo na próxima compra.',
      fullRefund:
        'Os códigos se esgotaram antes da entrega. Devolvemos o valor total, {refund}, ao seu saldo na hora; você pode usá-lo na próxima compra.',
      codesHint:
        'Para sua segurança, os códigos nunca são enviados por e-mail: abra seu perfil para vê-los e copiá-los.',
      receiptHint: 'O recibo deste pedido, em PDF, está na página do pedido.',
    },
    balance: {
      topupSubject: 'Seu saldo na {store} foi recarregado',
      topupIntro: 'Recebemos o pagamento da sua recarga {order}: {amount} foram adicionados ao seu saldo.',
      refundSubject: 'Dinheiro devolvido ao seu saldo na {store}',
      orderRefundedIntro: 'Reembolsamos o seu pedido {order}: {amount} voltaram para o seu saldo.',
      paidTwiceSubject: 'Seu segundo pagamento do pedido {order} está sendo devolvido',
      paidTwiceIntro:
        'O seu pedido {order} já estava pago, por isso não ficamos com o seu segundo pagamento de {amount}: estamos devolvendo-o ao cartão ou à conta de onde veio. O seu banco mostra a devolução em alguns dias.',
      lateReturnedSubject: 'Seu pagamento do pedido {order} está sendo devolvido',
      lateReturnedIntro:
        'Seu pagamento de {amount} do pedido {order} chegou depois que o pedido foi encerrado, e o cupom dele já foi usado desde então, por isso não pudemos concluí-lo por esse preço: estamos devolvendo o dinheiro ao cartão ou à conta de onde veio. O seu banco mostra a devolução em alguns dias.',
      balanceNow: 'Seu saldo agora é de {balance}. Você pode usá-lo na próxima compra.',
      button: 'Abrir meu perfil',
    },
  },
  ru: {
    common: {
      greeting: 'Здравствуйте, {name}!',
      greetingNoName: 'Здравствуйте!',
      linkHint: 'Если кнопка не работает, скопируйте эту ссылку в адресную строку браузера:',
      expiry: 'Ссылка действует {duration}.',
      ignore: 'Если вы этого не запрашивали, просто проигнорируйте это письмо — ничего не изменится.',
      signoff: 'Команда {store}',
      footer: 'Это автоматическое письмо, отвечать на него не нужно.',
      // Accusative of duration: «действует 1 минуту, 3 минуты, 5 минут».
      units: {
        minute: { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' },
        hour: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
        day: { one: 'день', few: 'дня', many: 'дней', other: 'дня' },
      },
    },
    templates: {
      'account-activation': {
        subject: 'Активируйте аккаунт в {store}',
        intro: 'Спасибо за регистрацию в {store}. Подтвердите, что это ваш адрес, чтобы активировать аккаунт.',
        button: 'Активировать аккаунт',
      },
      'email-verify': {
        subject: 'Подтвердите адрес электронной почты',
        intro: 'Подтвердите адрес электронной почты, чтобы мы могли присылать на него коды подарочных карт и чеки.',
        button: 'Подтвердить почту',
      },
      'password-reset': {
        subject: 'Сброс пароля в {store}',
        intro:
          'Мы получили запрос на сброс пароля вашего аккаунта в {store}. Нажмите кнопку ниже, чтобы задать новый пароль.',
        button: 'Задать новый пароль',
      },
      'email-change': {
        subject: 'Подтвердите новый адрес почты',
        intro:
          'Вы запросили смену адреса электронной почты вашего аккаунта в {store} на этот. Подтвердите смену, чтобы начать им пользоваться.',
        button: 'Подтвердить новый адрес',
      },
      'password-change': {
        subject: 'Подтвердите смену пароля',
        intro:
          'Вы запросили смену пароля вашего аккаунта в {store}. Подтвердите смену, чтобы новый пароль вступил в силу.',
        button: 'Подтвердить смену пароля',
      },
      'back-in-stock-confirm': {
        subject: 'Подтвердите подписку на поступление товара в {store}',
        intro:
          'Кто-то попросил {store} написать на этот адрес один раз, когда распроданный товар снова появится в наличии. Подтвердите, что адрес ваш и вы хотите получить это письмо.',
        button: 'Подтвердить подписку',
      },
      'email-changed': {
        subject: 'Адрес почты вашего аккаунта в {store} изменён',
        intro:
          'Адрес электронной почты вашего аккаунта в {store} только что изменили на другой. Теперь мы пишем на новый адрес, а с этим адресом войти в аккаунт больше нельзя.',
        button: 'Отменить изменение',
        closing:
          'Если это сделали вы, больше ничего делать не нужно. Если нет, кнопка выше вернёт аккаунту этот адрес и выполнит выход на всех устройствах; затем вы зададите новый пароль. Кнопка действует {duration}.',
      },
      'email-in-use': {
        subject: 'Кто-то пытался использовать ваш адрес в {store}',
        intro:
          'Кто-то попросил перенести на этот адрес электронной почты другой аккаунт в {store}. Адрес уже принадлежит вашему аккаунту, поэтому ничего не изменилось и никто другой не может его использовать.',
        button: 'Открыть магазин',
        closing:
          'Если это были вы, входите с этим адресом. Если нет, просто проигнорируйте это письмо — ваш аккаунт не изменился.',
      },
      'back-in-stock': {
        subject: 'Снова в наличии в {store}',
        intro:
          'Товар, за которым вы просили следить, снова в наличии в {store}. Коды популярных карт быстро заканчиваются.',
        button: 'Открыть товар',
        closing:
          'Мы написали один раз, как вы просили; чтобы получить письмо снова, подпишитесь ещё раз на странице товара.',
      },
    },
    receipt: {
      subject: 'Ваш заказ {order} в {store}',
      intro: 'Спасибо за покупку! Заказ выполнен, коды ждут вас в личном кабинете.',
      button: 'Открыть заказ',
      linesTitle: 'Вы купили:',
      line: '{name} × {quantity}',
      lineShort: '{name}: выдано {delivered} из {quantity}',
      total: 'Оплачено: {total}',
      partialRefund:
        'Часть кодов закончилась до выдачи. Мы сразу вернули {refund} на ваш баланс — их можно потратить на следующую покупку.',
      fullRefund:
        'Коды закончились до выдачи. Мы сразу вернули всю сумму, {refund}, на ваш баланс — её можно потратить на следующую покупку.',
      codesHint:
        'В целях безопасности коды никогда не отправляются по почте: откройте личный кабинет, чтобы увидеть и скопировать их.',
      receiptHint: 'Чек этого заказа в PDF — на странице заказа.',
    },
    balance: {
      topupSubject: 'Баланс в {store} пополнен',
      topupIntro: 'Мы получили оплату пополнения {order}: на ваш баланс зачислено {amount}.',
      refundSubject: 'Деньги возвращены на ваш баланс в {store}',
      orderRefundedIntro: 'Мы вернули деньги за заказ {order}: на ваш баланс зачислено {amount}.',
      paidTwiceSubject: 'Ваш второй платёж за заказ {order} возвращается',
      paidTwiceIntro:
        'Заказ {order} уже был оплачен, поэтому мы не оставили себе ваш второй платёж {amount}: мы возвращаем его на карту или счёт, с которых он пришёл. Банк покажет возврат в течение нескольких дней.',
      lateReturnedSubject: 'Ваш платёж за заказ {order} возвращается',
      lateReturnedIntro:
        'Ваш платёж {amount} за заказ {order} пришёл уже после закрытия заказа, а его промокод с тех пор использован, поэтому мы не смогли выполнить заказ по этой цене: мы возвращаем деньги на карту или счёт, с которых они пришли. Банк покажет возврат в течение нескольких дней.',
      balanceNow: 'Сейчас на вашем балансе {balance} — их можно потратить на следующую покупку.',
      button: 'Открыть личный кабинет',
    },
  },
  hi: {
    common: {
      greeting: 'नमस्ते, {name}!',
      greetingNoName: 'नमस्ते!',
      linkHint: 'अगर बटन काम न करे, तो यह लिंक कॉपी करके अपने ब्राउज़र में खोलें:',
      expiry: 'यह लिंक {duration} तक काम करेगा।',
      ignore: 'अगर आपने यह अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें — कुछ भी नहीं बदलेगा।',
      signoff: '{store} टीम',
      footer: 'यह एक स्वचालित संदेश है, कृपया इसका उत्तर न दें।',
      // Oblique case before «तक»: «1 घंटे तक», «72 घंटे तक».
      units: {
        minute: { other: 'मिनट' },
        hour: { other: 'घंटे' },
        day: { other: 'दिन' },
      },
    },
    templates: {
      'account-activation': {
        subject: 'अपना {store} खाता सक्रिय करें',
        intro: '{store} पर पंजीकरण करने के लिए धन्यवाद। अपना खाता सक्रिय करने के लिए पुष्टि करें कि यह ईमेल पता आपका है।',
        button: 'खाता सक्रिय करें',
      },
      'email-verify': {
        subject: 'अपना ईमेल पता सत्यापित करें',
        intro: 'कृपया अपना ईमेल पता सत्यापित करें, ताकि हम आपके गिफ़्ट कार्ड कोड और रसीदें इस पर भेज सकें।',
        button: 'ईमेल सत्यापित करें',
      },
      'password-reset': {
        subject: 'अपना {store} पासवर्ड रीसेट करें',
        intro: 'हमें आपके {store} खाते का पासवर्ड रीसेट करने का अनुरोध मिला है। नया पासवर्ड चुनने के लिए नीचे दिए गए बटन पर क्लिक करें।',
        button: 'नया पासवर्ड चुनें',
      },
      'email-change': {
        subject: 'अपने नए ईमेल पते की पुष्टि करें',
        intro:
          'आपने अपने {store} खाते का ईमेल पता बदलकर यह पता करने का अनुरोध किया है। इसका उपयोग शुरू करने के लिए बदलाव की पुष्टि करें।',
        button: 'नए ईमेल की पुष्टि करें',
      },
      'password-change': {
        subject: 'पासवर्ड बदलने की पुष्टि करें',
        intro: 'आपने अपने {store} खाते का पासवर्ड बदलने का अनुरोध किया है। नया पासवर्ड लागू करने के लिए बदलाव की पुष्टि करें।',
        button: 'पासवर्ड बदलने की पुष्टि करें',
      },
      'back-in-stock-confirm': {
        subject: '{store} पर स्टॉक में वापसी की सूचना की पुष्टि करें',
        intro:
          'किसी ने {store} से अनुरोध किया है कि बिक चुका उत्पाद फिर से स्टॉक में आने पर इस पते पर एक बार लिखा जाए। पुष्टि करें कि यह पता आपका है और आप वह ईमेल चाहते हैं।',
        button: 'सूचना की पुष्टि करें',
      },
      'email-changed': {
        subject: 'आपके {store} खाते का ईमेल पता बदल दिया गया है',
        intro:
          'आपके {store} खाते का ईमेल पता अभी किसी दूसरे पते में बदला गया है। अब से हम नए पते पर लिखेंगे, और इस पते से खाते में लॉग इन नहीं किया जा सकेगा।',
        button: 'बदलाव वापस लें',
        closing:
          'अगर यह बदलाव आपने किया है, तो आपको कुछ और करने की ज़रूरत नहीं है। अगर नहीं, तो ऊपर दिया बटन यह पता खाते को वापस दे देगा और हर डिवाइस पर खाते से लॉग आउट कर देगा; इसके बाद आप नया पासवर्ड चुनेंगे। यह बटन {duration} तक काम करेगा।',
      },
      'email-in-use': {
        subject: 'किसी ने {store} पर आपके ईमेल पते का उपयोग करने की कोशिश की',
        intro:
          'किसी ने {store} के एक दूसरे खाते को इस ईमेल पते पर ले जाने का अनुरोध किया। यह पता पहले से आपके खाते का है, इसलिए कुछ नहीं बदला गया और कोई और इसका उपयोग नहीं कर सकता।',
        button: 'स्टोर खोलें',
        closing: 'अगर यह आप थे, तो इसी पते से लॉग इन करें। अगर नहीं, तो इस ईमेल को अनदेखा करें: आपके खाते में कोई बदलाव नहीं हुआ है।',
      },
      'back-in-stock': {
        subject: '{store} पर फिर से स्टॉक में',
        intro:
          'जिस उत्पाद पर नज़र रखने के लिए आपने कहा था, वह {store} पर फिर से स्टॉक में है। लोकप्रिय कार्ड के कोड जल्दी ख़त्म हो जाते हैं।',
        button: 'उत्पाद देखें',
        closing: 'आपके कहने पर हमने एक बार लिखा है; फिर से सूचना पाने के लिए उत्पाद पेज पर दोबारा अनुरोध करें।',
      },
    },
    receipt: {
      subject: '{store} पर आपका ऑर्डर {order}',
      intro: 'खरीदारी के लिए धन्यवाद! आपका ऑर्डर पूरा हो गया है और आपके कोड आपकी प्रोफ़ाइल में आपका इंतज़ार कर रहे हैं।',
      button: 'मेरा ऑर्डर खोलें',
      linesTitle: 'आपने क्या खरीदा:',
      line: '{name} × {quantity}',
      lineShort: '{name}: {quantity} में से {delivered} दिए गए',
      total: 'कुल भुगतान: {total}',
      partialRefund:
        'कुछ कोड देने से पहले ही खत्म हो गए। हमने {refund} तुरंत आपके बैलेंस में लौटा दिए हैं; आप इन्हें अगली खरीदारी में इस्तेमाल कर सकते हैं।',
      fullRefund:
        'कोड देने से पहले ही खत्म हो गए। हमने पूरी राशि, {refund}, तुरंत आपके बैलेंस में लौटा दी है; आप इसे अगली खरीदारी में इस्तेमाल कर सकते हैं।',
      codesHint: 'आपकी सुरक्षा के लिए कोड कभी ईमेल से नहीं भेजे जाते: उन्हें देखने और कॉपी करने के लिए अपनी प्रोफ़ाइल खोलें।',
      receiptHint: 'इस ऑर्डर की रसीद PDF में ऑर्डर के पेज पर है।',
    },
    balance: {
      topupSubject: 'आपका {store} बैलेंस रिचार्ज हो गया',
      topupIntro: 'हमें आपके रिचार्ज {order} का भुगतान मिल गया है: {amount} आपके बैलेंस में जोड़ दिए गए हैं।',
      refundSubject: 'पैसे आपके {store} बैलेंस में लौटा दिए गए',
      orderRefundedIntro: 'हमने आपके ऑर्डर {order} का पैसा लौटा दिया है: {amount} आपके बैलेंस में जमा कर दिए गए हैं।',
      paidTwiceSubject: 'ऑर्डर {order} का आपका दूसरा भुगतान लौटाया जा रहा है',
      paidTwiceIntro:
        'आपके ऑर्डर {order} का भुगतान पहले ही हो चुका था, इसलिए हमने आपका {amount} का दूसरा भुगतान नहीं रखा: हम इसे उसी कार्ड या खाते में लौटा रहे हैं जिससे यह आया था। आपका बैंक इसे कुछ दिनों में दिखाएगा।',
      lateReturnedSubject: 'ऑर्डर {order} का आपका भुगतान लौटाया जा रहा है',
      lateReturnedIntro:
        'ऑर्डर {order} के लिए आपका {amount} का भुगतान ऑर्डर बंद होने के बाद आया, और उसका प्रोमो कोड तब से इस्तेमाल हो चुका है, इसलिए हम उस कीमत पर ऑर्डर पूरा नहीं कर सके: हम पैसे उसी कार्ड या खाते में लौटा रहे हैं जिससे वे आए थे। आपका बैंक इसे कुछ दिनों में दिखाएगा।',
      balanceNow: 'अब आपका बैलेंस {balance} है। आप इसे अगली खरीदारी में इस्तेमाल कर सकते हैं।',
      button: 'मेरी प्रोफ़ाइल खोलें',
    },
  },
};
