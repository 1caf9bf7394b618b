/**
 * The demo catalogue's descriptions and activation instructions in the store's other languages, by
 * category slug (English is the category's own text in demo-data.ts). Each product gets the texts of
 * its platform in every language.
 */
export interface ProductTexts {
  description: string;
  instructions: string;
}

export type TranslatedLocale = 'pt-BR' | 'ru' | 'hi';

export const CATEGORY_TRANSLATIONS: Record<string, Record<TranslatedLocale, ProductTexts>> = {
  steam: {
    'pt-BR': {
      description:
        'Adiciona fundos à Carteira Steam. Use-os em jogos, programas, hardware e itens de jogos em toda a loja Steam. A moeda da carteira deve ser a mesma do cartão; os fundos nunca expiram.',
      instructions:
        '1. Entre na sua conta Steam no aplicativo Steam ou no site da Steam.\n2. Abra o menu da conta e escolha "Resgatar um cartão-presente ou código da Steam".\n3. Digite o código exatamente como aparece e confirme.\n4. O valor é adicionado à sua Carteira Steam na hora.',
    },
    ru: {
      description:
        'Пополняет кошелёк Steam. Средства можно тратить на игры, программы, устройства и внутриигровые предметы во всём магазине Steam. Валюта кошелька должна совпадать с валютой карты; средства не сгорают.',
      instructions:
        '1. Войдите в аккаунт Steam в приложении Steam или на сайте Steam.\n2. Откройте меню аккаунта и выберите «Активировать подарочную карту или код для кошелька Steam».\n3. Введите код точно так, как он показан, и подтвердите.\n4. Сумма сразу поступит в ваш кошелёк Steam.',
    },
    hi: {
      description:
        'Steam वॉलेट में राशि जोड़ता है। इसे Steam स्टोर पर गेम, सॉफ़्टवेयर, हार्डवेयर और इन-गेम आइटम पर खर्च करें। वॉलेट की मुद्रा कार्ड की मुद्रा जैसी होनी चाहिए; राशि कभी समाप्त नहीं होती।',
      instructions:
        '1. Steam ऐप या Steam वेबसाइट पर अपने Steam खाते में साइन इन करें।\n2. खाता मेनू खोलें और "Steam गिफ़्ट कार्ड या वॉलेट कोड रिडीम करें" चुनें।\n3. कोड ठीक वैसा ही दर्ज करें जैसा दिखाया गया है और पुष्टि करें।\n4. राशि तुरंत आपके Steam वॉलेट में जुड़ जाती है।',
    },
  },
  playstation: {
    'pt-BR': {
      description:
        'Crédito para a PlayStation Store: jogos, complementos, PlayStation Plus e filmes no PS5 e PS4. Funciona apenas com uma conta registrada no mesmo país do cartão.',
      instructions:
        '1. No PS5, abra Configurações > Usuários e contas > Conta > Pagamento e assinaturas > Resgatar códigos e complementos.\n2. Digite o código de 12 caracteres e selecione Resgatar.\n3. O saldo aparece na sua carteira imediatamente.',
    },
    ru: {
      description:
        'Средства для PlayStation Store: игры, дополнения, PlayStation Plus и фильмы на PS5 и PS4. Работает только с аккаунтом, зарегистрированным в той же стране, что и карта.',
      instructions:
        '1. На PS5 откройте Настройки > Пользователи и учётные записи > Учётная запись > Платежи и подписки > Активировать коды и дополнения.\n2. Введите 12-значный код и выберите «Активировать».\n3. Средства сразу появятся в кошельке.',
    },
    hi: {
      description:
        'PlayStation Store के लिए क्रेडिट: PS5 और PS4 पर गेम, ऐड-ऑन, PlayStation Plus और फ़िल्में। केवल उसी देश में पंजीकृत खाते पर काम करता है जिस देश का कार्ड है।',
      instructions:
        '1. अपने PS5 पर सेटिंग्स > उपयोगकर्ता और खाते > खाता > भुगतान और सदस्यताएँ > कोड और ऐड-ऑन रिडीम करें खोलें।\n2. 12 अक्षरों का कोड दर्ज करें और रिडीम चुनें।\n3. राशि तुरंत आपके वॉलेट में दिखाई देती है।',
    },
  },
  xbox: {
    'pt-BR': {
      description:
        'Adiciona dinheiro a uma conta Microsoft para comprar jogos, complementos, Game Pass e aplicativos no Xbox e no Windows. A região da conta deve ser a mesma do cartão.',
      instructions:
        '1. Acesse redeem.microsoft.com ou abra a Microsoft Store no seu Xbox.\n2. Entre com a conta Microsoft que deseja recarregar.\n3. Digite o código de 25 caracteres e confirme.',
    },
    ru: {
      description:
        'Пополняет учётную запись Microsoft для покупки игр, дополнений, Game Pass и приложений на Xbox и Windows. Регион учётной записи должен совпадать с регионом карты.',
      instructions:
        '1. Перейдите на redeem.microsoft.com или откройте Microsoft Store на Xbox.\n2. Войдите в учётную запись Microsoft, которую хотите пополнить.\n3. Введите 25-значный код и подтвердите.',
    },
    hi: {
      description:
        'Xbox कंसोल और Windows पर गेम, ऐड-ऑन, Game Pass और ऐप ख़रीदने के लिए Microsoft खाते में पैसे जोड़ता है। खाते का क्षेत्र कार्ड के क्षेत्र जैसा होना चाहिए।',
      instructions:
        '1. redeem.microsoft.com पर जाएँ या अपने Xbox पर Microsoft Store खोलें।\n2. उस Microsoft खाते से साइन इन करें जिसमें राशि जोड़नी है।\n3. 25 अक्षरों का कोड दर्ज करें और पुष्टि करें।',
    },
  },
  'app-store': {
    'pt-BR': {
      description:
        'Saldo da conta Apple para apps, jogos, iCloud+, Apple Music, Apple TV+ e mais, no iPhone, iPad e Mac. Somente para contas Apple do mesmo país.',
      instructions:
        '1. No iPhone, abra a App Store e toque na sua foto no topo.\n2. Toque em "Resgatar cartão-presente ou código" e escolha "Inserir código manualmente".\n3. Digite o código de 16 caracteres que começa com X e toque em Resgatar.',
    },
    ru: {
      description:
        'Баланс учётной записи Apple для приложений, игр, iCloud+, Apple Music, Apple TV+ и другого на iPhone, iPad и Mac. Только для учётных записей Apple той же страны.',
      instructions:
        '1. На iPhone откройте App Store и нажмите на своё фото вверху.\n2. Нажмите «Погасить подарочную карту или код» и выберите «Ввести код вручную».\n3. Введите 16-значный код, начинающийся с X, и нажмите «Погасить».',
    },
    hi: {
      description:
        'iPhone, iPad और Mac पर ऐप, गेम, iCloud+, Apple Music, Apple TV+ और बहुत कुछ के लिए Apple खाते का बैलेंस। केवल उसी देश के Apple खातों के लिए।',
      instructions:
        '1. अपने iPhone पर App Store खोलें और ऊपर अपनी फ़ोटो पर टैप करें।\n2. "गिफ़्ट कार्ड या कोड रिडीम करें" पर टैप करें और "कोड मैन्युअली दर्ज करें" चुनें।\n3. X से शुरू होने वाला 16 अक्षरों का कोड लिखें और रिडीम पर टैप करें।',
    },
  },
  'google-play': {
    'pt-BR': {
      description:
        'Saldo do Google Play para apps, jogos, compras no app, livros e assinaturas no Android. Resgatável apenas no país do cartão.',
      instructions:
        '1. Abra o app Google Play Store e toque no ícone do seu perfil.\n2. Toque em "Pagamentos e assinaturas" > "Resgatar código".\n3. Digite o código e toque em Resgatar; o saldo fica pronto para uso.',
    },
    ru: {
      description:
        'Баланс Google Play для приложений, игр, покупок в приложениях, книг и подписок на Android. Активируется только в стране карты.',
      instructions:
        '1. Откройте приложение Google Play Маркет и нажмите на значок профиля.\n2. Нажмите «Платежи и подписки» > «Активировать промокод».\n3. Введите код и нажмите «Активировать»; баланс сразу можно использовать.',
    },
    hi: {
      description:
        'Android पर ऐप, गेम, इन-ऐप ख़रीदारी, किताबों और सदस्यताओं के लिए Google Play बैलेंस। केवल कार्ड के देश में रिडीम किया जा सकता है।',
      instructions:
        '1. Google Play Store ऐप खोलें और अपने प्रोफ़ाइल आइकन पर टैप करें।\n2. "भुगतान और सदस्यताएँ" > "कोड रिडीम करें" पर टैप करें।\n3. कोड दर्ज करें और रिडीम पर टैप करें; बैलेंस उपयोग के लिए तैयार है।',
    },
  },
  'league-of-legends': {
    'pt-BR': {
      description:
        'Riot Points para League of Legends: campeões, skins, passes e mais. O cartão pré-pago funciona apenas no servidor da sua região.',
      instructions:
        '1. Entre no cliente do League of Legends.\n2. Abra a Loja, depois a aba "Comprar RP" e escolha "Cartões e códigos pré-pagos".\n3. Digite o código e confirme; os RP são creditados na hora.',
    },
    ru: {
      description:
        'Riot Points для League of Legends: чемпионы, образы, пропуски и многое другое. Предоплаченная карта работает только на сервере своего региона.',
      instructions:
        '1. Войдите в клиент League of Legends.\n2. Откройте Магазин, затем вкладку «Купить RP» и выберите «Предоплаченные карты и коды».\n3. Введите код и подтвердите; RP зачисляются мгновенно.',
    },
    hi: {
      description:
        'League of Legends के लिए Riot Points: चैंपियन, स्किन, पास और बहुत कुछ। प्रीपेड कार्ड केवल अपने क्षेत्र के सर्वर पर काम करता है।',
      instructions:
        '1. League of Legends क्लाइंट में साइन इन करें।\n2. स्टोर खोलें, फिर "RP ख़रीदें" टैब खोलें और "प्रीपेड कार्ड और कोड" चुनें।\n3. कोड दर्ज करें और पुष्टि करें; RP तुरंत जुड़ जाते हैं।',
    },
  },
  netflix: {
    'pt-BR': {
      description:
        'Paga a assinatura da Netflix sem cartão. O saldo é usado em cada cobrança mensal até acabar; funciona apenas para contas do mesmo país.',
      instructions:
        '1. Acesse netflix.com/redeem em um navegador.\n2. Entre na sua conta ou crie uma.\n3. Digite o PIN do seu código e selecione Resgatar.',
    },
    ru: {
      description:
        'Оплачивает подписку Netflix без банковской карты. Баланс списывается за каждый месяц, пока не закончится; работает только для аккаунтов той же страны.',
      instructions:
        '1. Откройте в браузере netflix.com/redeem.\n2. Войдите в аккаунт или создайте его.\n3. Введите PIN из кода и выберите «Активировать».',
    },
    hi: {
      description:
        'बिना कार्ड के Netflix सदस्यता का भुगतान करता है। बैलेंस हर मासिक शुल्क में तब तक इस्तेमाल होता है जब तक ख़त्म न हो; केवल उसी देश के खातों पर काम करता है।',
      instructions:
        '1. ब्राउज़र में netflix.com/redeem खोलें।\n2. साइन इन करें या नया खाता बनाएँ।\n3. अपने कोड का PIN दर्ज करें और रिडीम चुनें।',
    },
  },
  spotify: {
    'pt-BR': {
      description:
        'Premium do Spotify: música sem anúncios, ouvir offline e qualquer música em qualquer ordem. O cartão cobre meses de Premium para uma conta do mesmo país.',
      instructions:
        '1. Acesse spotify.com/redeem e entre na sua conta.\n2. Digite o PIN do cartão-presente.\n3. Confirme; o Premium começa na hora e os meses são somados ao seu plano.',
    },
    ru: {
      description:
        'Premium для Spotify: музыка без рекламы, прослушивание офлайн и любые песни в любом порядке. Карта оплачивает месяцы Premium для аккаунта той же страны.',
      instructions:
        '1. Откройте spotify.com/redeem и войдите в аккаунт.\n2. Введите PIN подарочной карты.\n3. Подтвердите; Premium начнётся сразу, а месяцы добавятся к вашему плану.',
    },
    hi: {
      description:
        'Spotify के लिए Premium: बिना विज्ञापन संगीत, ऑफ़लाइन सुनना और कोई भी गाना किसी भी क्रम में। कार्ड उसी देश के खाते के लिए कई महीनों का Premium देता है।',
      instructions:
        '1. spotify.com/redeem पर जाएँ और साइन इन करें।\n2. गिफ़्ट कार्ड का PIN दर्ज करें।\n3. पुष्टि करें; Premium तुरंत शुरू होता है और महीने आपके प्लान में जुड़ जाते हैं।',
    },
  },
  valorant: {
    'pt-BR': {
      description:
        'Valorant Points para skins de armas, agentes e passes de batalha. O código pré-pago funciona apenas para contas da sua região.',
      instructions:
        '1. Abra o Valorant e vá para a Loja.\n2. Selecione "Adicionar VP" e escolha "Cartões e códigos pré-pagos".\n3. Digite o código e confirme; os VP aparecem no seu saldo.',
    },
    ru: {
      description:
        'Valorant Points для скинов оружия, агентов и боевых пропусков. Предоплаченный код работает только для аккаунтов своего региона.',
      instructions:
        '1. Запустите Valorant и откройте Магазин.\n2. Выберите «Добавить VP» и затем «Предоплаченные карты и коды».\n3. Введите код и подтвердите; VP появятся на балансе.',
    },
    hi: {
      description: 'हथियार स्किन, एजेंट और बैटल पास के लिए Valorant Points। प्रीपेड कोड केवल अपने क्षेत्र के खातों के लिए काम करता है।',
      instructions:
        '1. Valorant चलाएँ और स्टोर खोलें।\n2. "VP जोड़ें" चुनें और "प्रीपेड कार्ड और कोड" चुनें।\n3. कोड दर्ज करें और पुष्टि करें; VP आपके बैलेंस में दिखाई देते हैं।',
    },
  },
};

/** Demo customers who left the demo's reviews; they have no password and cannot sign in. */
export const DEMO_REVIEWERS = [
  'Marina88',
  'Rahul2024',
  'Dmitry77',
  'JoaoPedro',
  'Priya21',
  'Olga5',
  'Lucas99',
  'Anil42',
];

/** What shoppers write about a gift card, in the store's four languages, with the stars they gave. */
export const DEMO_REVIEWS: Array<{ rating: number; text: string }> = [
  { rating: 5, text: 'Code arrived right after payment and worked on the first try.' },
  { rating: 5, text: 'Código chegou na hora, ativei sem problema nenhum. Recomendo!' },
  { rating: 4, text: 'Всё пришло сразу, код активировался. Минус звезда за цену.' },
  { rating: 5, text: 'भुगतान के तुरंत बाद कोड मिल गया और पहली बार में ही काम कर गया।' },
  { rating: 4, text: 'Worked fine. Check the region before buying: mine had to match my account.' },
  { rating: 5, text: 'Terceira compra aqui, sempre rápido. O código aparece no perfil.' },
  { rating: 3, text: 'Код рабочий, но сначала не заметил, что карта только для другого региона.' },
  { rating: 5, text: 'Great price compared with the official store, instant delivery.' },
  { rating: 4, text: 'अच्छा अनुभव, कोड प्रोफ़ाइल में तुरंत दिखा।' },
  { rating: 5, text: 'Comprei de presente, a pessoa resgatou na mesma hora.' },
];
