import type { EmailTemplate, Locale } from '@store/contract';

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

export interface LocaleTexts {
  common: CommonTexts;
  templates: Record<EmailTemplate, TemplateTexts>;
}

export const STORE_NAME = 'Gift Store';

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
    },
  },
};
