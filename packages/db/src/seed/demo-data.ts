/**
 * The demo store: nine platforms, each with its regions, denominations, copy and code format.
 * Prices are derived from face values; nothing here is a real code.
 */

export interface CurrencyDef {
  code: string;
  minorUnits: number;
  /** Approximate value of one unit in BRL, for pricing demo cards. */
  brl: number;
}

export const CURRENCIES: CurrencyDef[] = [
  { code: 'USD', minorUnits: 2, brl: 5.6 },
  { code: 'EUR', minorUnits: 2, brl: 6.1 },
  { code: 'GBP', minorUnits: 2, brl: 7.1 },
  { code: 'BRL', minorUnits: 2, brl: 1 },
  { code: 'INR', minorUnits: 2, brl: 0.067 },
  { code: 'TRY', minorUnits: 2, brl: 0.17 },
  { code: 'PLN', minorUnits: 2, brl: 1.4 },
  { code: 'RUB', minorUnits: 2, brl: 0.06 },
];

/** A null name is a region. */
export const COUNTRIES: Array<{ code: string; name: string | null }> = [
  { code: 'BR', name: 'Brazil' },
  { code: 'US', name: 'United States' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'DE', name: 'Germany' },
  { code: 'IN', name: 'India' },
  { code: 'TR', name: 'Turkey' },
  { code: 'PL', name: 'Poland' },
  { code: 'EU', name: null },
  { code: 'GLOBAL', name: null },
];

export interface Offer {
  country: string;
  currency: string;
  amounts: number[];
  /** Shown after the name, e.g. "(NA)". */
  label?: string;
}

export interface CategoryDef {
  slug: string;
  name: string;
  formattedName: string;
  /** `{amount}`, `{currency}`, `{label}` and `{units}` are filled per product. */
  productName: string;
  coverText: string;
  /** In-game units per unit of currency, for currencies sold as points (RP, VP). */
  unitsPerCurrency?: Record<string, number>;
  offers: Offer[];
  description: string;
  instructions: string;
  /** Groups of this many random characters joined by dashes. */
  codeFormat: number[];
  codeAlphabet?: string;
}

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const CATEGORIES: CategoryDef[] = [
  {
    slug: 'steam',
    name: 'Steam',
    formattedName: 'Steam',
    productName: 'Steam Gift Card {amount} {currency}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [5, 10, 20, 50, 100] },
      { country: 'EU', currency: 'EUR', amounts: [5, 10, 20, 50, 100] },
      { country: 'BR', currency: 'BRL', amounts: [20, 50, 100, 200] },
      { country: 'GB', currency: 'GBP', amounts: [5, 10, 20, 50] },
      { country: 'IN', currency: 'INR', amounts: [500, 1000, 2000] },
    ],
    description:
      'Adds funds to a Steam Wallet. Spend them on games, software, hardware and in-game items across the Steam store. The wallet currency must match the card currency; the funds never expire.',
    instructions:
      '1. Sign in to your Steam account in the Steam app or at the Steam website.\n2. Open your account menu and choose "Redeem a Steam Gift Card or Wallet Code".\n3. Enter the code exactly as shown and confirm.\n4. The amount is added to your Steam Wallet at once.',
    codeFormat: [5, 5, 5],
  },
  {
    slug: 'playstation',
    name: 'PlayStation',
    formattedName: 'PlayStation',
    productName: 'PlayStation Store Gift Card {amount} {currency}{label}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [10, 25, 50, 100], label: ' (US)' },
      { country: 'BR', currency: 'BRL', amounts: [30, 60, 100, 250], label: ' (BR)' },
      { country: 'GB', currency: 'GBP', amounts: [10, 20, 50], label: ' (UK)' },
      { country: 'DE', currency: 'EUR', amounts: [10, 20, 50], label: ' (DE)' },
    ],
    description:
      'Credit for the PlayStation Store: games, add-ons, PlayStation Plus and films on PS5 and PS4. Works only with an account registered in the same country as the card.',
    instructions:
      '1. On your PS5, open Settings > Users and Accounts > Account > Payment and Subscriptions > Redeem Codes and Add-Ons.\n2. Enter the 12-character code and select Redeem.\n3. The funds appear in your wallet immediately.',
    codeFormat: [4, 4, 4],
  },
  {
    slug: 'xbox',
    name: 'Xbox',
    formattedName: 'Xbox',
    productName: 'Xbox Gift Card {amount} {currency}{label}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [10, 15, 25, 50, 100], label: ' (US)' },
      { country: 'BR', currency: 'BRL', amounts: [25, 50, 100, 200], label: ' (BR)' },
      { country: 'EU', currency: 'EUR', amounts: [10, 25, 50], label: ' (EU)' },
    ],
    description:
      'Adds money to a Microsoft account to buy games, add-ons, Game Pass and apps on Xbox consoles and Windows. The account region must match the card region.',
    instructions:
      '1. Go to redeem.microsoft.com or open the Microsoft Store on your Xbox.\n2. Sign in with the Microsoft account you want to top up.\n3. Enter the 25-character code and confirm.',
    codeFormat: [5, 5, 5, 5, 5],
  },
  {
    slug: 'app-store',
    name: 'App Store & iTunes',
    formattedName: 'App Store',
    productName: 'Apple Gift Card {amount} {currency}{label}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [2, 10, 25, 50, 100], label: ' (US)' },
      { country: 'BR', currency: 'BRL', amounts: [30, 50, 100, 200], label: ' (BR)' },
      { country: 'GB', currency: 'GBP', amounts: [15, 25, 50], label: ' (UK)' },
      { country: 'IN', currency: 'INR', amounts: [500, 1000, 1500], label: ' (IN)' },
    ],
    description:
      'Apple account balance for apps, games, iCloud+, Apple Music, Apple TV+ and more, on iPhone, iPad and Mac. Only for Apple accounts of the same country.',
    instructions:
      '1. On your iPhone, open the App Store and tap your photo at the top.\n2. Tap "Redeem Gift Card or Code" and choose "Enter Code Manually".\n3. Type the 16-character code starting with X and tap Redeem.',
    codeFormat: [16],
  },
  {
    slug: 'google-play',
    name: 'Google Play',
    formattedName: 'Google Play',
    productName: 'Google Play Gift Card {amount} {currency}{label}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [10, 25, 50, 100], label: ' (US)' },
      { country: 'BR', currency: 'BRL', amounts: [15, 30, 50, 100, 200], label: ' (BR)' },
      { country: 'IN', currency: 'INR', amounts: [100, 300, 500, 1000], label: ' (IN)' },
      { country: 'TR', currency: 'TRY', amounts: [100, 250, 500], label: ' (TR)' },
    ],
    description:
      'Google Play balance for apps, games, in-app purchases, books and subscriptions on Android. Redeemable only in the country of the card.',
    instructions:
      '1. Open the Google Play Store app and tap your profile icon.\n2. Tap "Payments & subscriptions" > "Redeem code".\n3. Enter the code and tap Redeem; the balance is ready to use.',
    codeFormat: [20],
  },
  {
    slug: 'league-of-legends',
    name: 'League of Legends',
    formattedName: 'League of Legends',
    productName: 'League of Legends {units} RP{label}',
    coverText: '{units} RP',
    unitsPerCurrency: { BRL: 16, USD: 130, EUR: 140 },
    offers: [
      { country: 'BR', currency: 'BRL', amounts: [20, 50, 100, 200], label: ' (BR)' },
      { country: 'US', currency: 'USD', amounts: [10, 25, 50, 100], label: ' (NA)' },
      { country: 'EU', currency: 'EUR', amounts: [10, 20, 50], label: ' (EUW)' },
    ],
    description:
      'Riot Points for League of Legends: champions, skins, passes and more. The prepaid card works only on the server of its region.',
    instructions:
      '1. Sign in to the League of Legends client.\n2. Open the Store, then the "Purchase RP" tab and choose "Prepaid Cards & Codes".\n3. Enter the code and confirm; the RP are credited instantly.',
    codeFormat: [4, 4, 4, 4],
  },
  {
    slug: 'netflix',
    name: 'Netflix',
    formattedName: 'Netflix',
    productName: 'Netflix Gift Card {amount} {currency}{label}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [25, 50, 100], label: ' (US)' },
      { country: 'BR', currency: 'BRL', amounts: [35, 50, 70, 100, 150], label: ' (BR)' },
      { country: 'TR', currency: 'TRY', amounts: [100, 200], label: ' (TR)' },
      { country: 'IN', currency: 'INR', amounts: [500, 1000], label: ' (IN)' },
    ],
    description:
      'Pays for a Netflix membership without a card. The balance is used for each monthly charge until it runs out; works only for accounts of the same country.',
    instructions:
      '1. Go to netflix.com/redeem in a browser.\n2. Sign in, or create an account.\n3. Enter the PIN from your code and select Redeem.',
    codeFormat: [11],
    codeAlphabet: ALNUM,
  },
  {
    slug: 'spotify',
    name: 'Spotify',
    formattedName: 'Spotify',
    productName: 'Spotify Premium Gift Card {amount} {currency}{label}',
    coverText: '{amount} {currency}',
    offers: [
      { country: 'US', currency: 'USD', amounts: [10, 30, 60], label: ' (US)' },
      { country: 'BR', currency: 'BRL', amounts: [20, 60, 120], label: ' (BR)' },
      { country: 'GB', currency: 'GBP', amounts: [10, 30], label: ' (UK)' },
      { country: 'PL', currency: 'PLN', amounts: [60, 120], label: ' (PL)' },
    ],
    description:
      'Premium for Spotify: music without ads, offline listening and any song in any order. The card covers months of Premium for an account of the same country.',
    instructions:
      '1. Go to spotify.com/redeem and sign in.\n2. Enter the PIN of the gift card.\n3. Confirm; Premium starts right away and the months are added to your plan.',
    codeFormat: [10],
    codeAlphabet: '0123456789',
  },
  {
    slug: 'valorant',
    name: 'Valorant',
    formattedName: 'Valorant',
    productName: 'Valorant {units} VP{label}',
    coverText: '{units} VP',
    unitsPerCurrency: { BRL: 20, USD: 105, EUR: 115 },
    offers: [
      { country: 'BR', currency: 'BRL', amounts: [20, 50, 100, 200], label: ' (BR)' },
      { country: 'US', currency: 'USD', amounts: [10, 25, 50, 100], label: ' (NA)' },
      { country: 'EU', currency: 'EUR', amounts: [5, 10, 25, 50], label: ' (EU)' },
    ],
    description:
      'Valorant Points for weapon skins, agents and battle passes. The prepaid code works only for accounts of its region.',
    instructions:
      '1. Launch Valorant and open the Store.\n2. Select "Add VP" and choose "Prepaid Cards & Codes".\n3. Enter the code and confirm; the VP appear in your balance.',
    codeFormat: [4, 4, 4, 4],
  },
];

export interface PromoCodeDef {
  code: string;
  discountPercent: number;
  maxUses?: number;
  validUntil?: Date;
  /** Category slugs the code is limited to; none: the whole basket. */
  categories?: string[];
}

/** WELCOME10 is the one the README offers newcomers: 10 % off, no end date, unlimited uses. */
export const PROMO_CODES: PromoCodeDef[] = [
  { code: 'WELCOME10', discountPercent: 10 },
  { code: 'GAMER15', discountPercent: 15 },
  { code: 'ONCE25', discountPercent: 25, maxUses: 1 },
  { code: 'SUMMER20', discountPercent: 20, validUntil: new Date('2026-03-01T00:00:00Z') },
  { code: 'PLAY20', discountPercent: 20, categories: ['playstation'] },
];

/**
 * The demo store's display rates, BRL per unit, so that a Russian or Hindi shopper sees prices in
 * their currency from the first start. Made up for the demo (late-2026 ballpark), set by `demo`.
 */
export const DEMO_DISPLAY_RATES: Array<{ currency: string; brlPerUnit: string }> = [
  { currency: 'RUB', brlPerUnit: '0.057' },
  { currency: 'INR', brlPerUnit: '0.064' },
];

export interface AliasDef {
  term: string;
  /** The language of the term; none for a brand or an abbreviation used in every language. */
  locale?: string;
}

/**
 * What shoppers type for each platform besides its name: abbreviations and other names, and the
 * name as Russian and Hindi speakers write it. Search adds them to every product of the category.
 */
export const CATEGORY_ALIASES: Record<string, AliasDef[]> = {
  steam: [{ term: 'Steam Wallet' }, { term: 'Valve' }, { term: 'Стим', locale: 'ru' }, { term: 'स्टीम', locale: 'hi' }],
  playstation: [
    { term: 'PSN' },
    { term: 'PS4' },
    { term: 'PS5' },
    { term: 'PlayStation Network' },
    { term: 'PlayStation Plus' },
    { term: 'Sony' },
    { term: 'Плейстейшн', locale: 'ru' },
    { term: 'Плейстейшен', locale: 'ru' },
    { term: 'ПСН', locale: 'ru' },
    { term: 'प्लेस्टेशन', locale: 'hi' },
  ],
  xbox: [
    { term: 'Xbox Live' },
    { term: 'Game Pass' },
    { term: 'Microsoft' },
    { term: 'Иксбокс', locale: 'ru' },
    { term: 'Хбокс', locale: 'ru' },
    { term: 'एक्सबॉक्स', locale: 'hi' },
  ],
  'app-store': [
    { term: 'iTunes' },
    { term: 'App Store' },
    { term: 'iCloud' },
    { term: 'Айтюнс', locale: 'ru' },
    { term: 'Эппл', locale: 'ru' },
    { term: 'Апп Стор', locale: 'ru' },
    { term: 'ऐप्पल', locale: 'hi' },
    { term: 'आईट्यून्स', locale: 'hi' },
    { term: 'ऐप स्टोर', locale: 'hi' },
  ],
  'google-play': [
    { term: 'Google Play Store' },
    { term: 'Play Store' },
    { term: 'Android' },
    { term: 'Гугл Плей', locale: 'ru' },
    { term: 'Плей Маркет', locale: 'ru' },
    { term: 'गूगल प्ले', locale: 'hi' },
  ],
  'league-of-legends': [
    { term: 'LoL' },
    { term: 'Riot Points' },
    { term: 'Лига Легенд', locale: 'ru' },
    { term: 'ЛоЛ', locale: 'ru' },
    { term: 'लीग ऑफ लीजेंड्स', locale: 'hi' },
  ],
  netflix: [
    { term: 'Нетфликс', locale: 'ru' },
    { term: 'नेटफ्लिक्स', locale: 'hi' },
  ],
  spotify: [
    { term: 'Спотифай', locale: 'ru' },
    { term: 'स्पॉटिफाई', locale: 'hi' },
  ],
  valorant: [{ term: 'Valorant Points' }, { term: 'Валорант', locale: 'ru' }, { term: 'वैलोरेंट', locale: 'hi' }],
};

/** Other names of the countries and regions, as shoppers of the four languages write them. */
export const COUNTRY_ALIASES: Record<string, AliasDef[]> = {
  BR: [
    { term: 'Brasil', locale: 'pt-BR' },
    { term: 'Бразилия', locale: 'ru' },
    { term: 'ब्राज़ील', locale: 'hi' },
  ],
  US: [
    { term: 'USA' },
    { term: 'America' },
    { term: 'EUA', locale: 'pt-BR' },
    { term: 'США', locale: 'ru' },
    { term: 'Америка', locale: 'ru' },
    { term: 'अमेरिका', locale: 'hi' },
  ],
  GB: [
    { term: 'UK' },
    { term: 'England' },
    { term: 'Britain' },
    { term: 'Reino Unido', locale: 'pt-BR' },
    { term: 'Великобритания', locale: 'ru' },
    { term: 'Англия', locale: 'ru' },
    { term: 'ब्रिटेन', locale: 'hi' },
  ],
  DE: [
    { term: 'Deutschland' },
    { term: 'Alemanha', locale: 'pt-BR' },
    { term: 'Германия', locale: 'ru' },
    { term: 'जर्मनी', locale: 'hi' },
  ],
  IN: [{ term: 'Bharat' }, { term: 'Индия', locale: 'ru' }, { term: 'भारत', locale: 'hi' }],
  TR: [
    { term: 'Türkiye' },
    { term: 'Turquia', locale: 'pt-BR' },
    { term: 'Турция', locale: 'ru' },
    { term: 'तुर्की', locale: 'hi' },
  ],
  PL: [
    { term: 'Polska' },
    { term: 'Polônia', locale: 'pt-BR' },
    { term: 'Польша', locale: 'ru' },
    { term: 'पोलैंड', locale: 'hi' },
  ],
  EU: [
    { term: 'Europe' },
    { term: 'Europa', locale: 'pt-BR' },
    { term: 'Европа', locale: 'ru' },
    { term: 'यूरोप', locale: 'hi' },
  ],
  GLOBAL: [{ term: 'Worldwide' }, { term: 'Global' }, { term: 'Весь мир', locale: 'ru' }],
};

/** Names of the currencies, so that "50 dollars" or "500 рублей" find the face value. */
export const CURRENCY_ALIASES: Record<string, AliasDef[]> = {
  USD: [{ term: 'dollar' }, { term: 'dollars' }, { term: 'доллар', locale: 'ru' }, { term: 'डॉलर', locale: 'hi' }],
  EUR: [{ term: 'euro' }, { term: 'euros' }, { term: 'евро', locale: 'ru' }, { term: 'यूरो', locale: 'hi' }],
  GBP: [{ term: 'pound' }, { term: 'pounds' }, { term: 'фунт', locale: 'ru' }, { term: 'पाउंड', locale: 'hi' }],
  BRL: [{ term: 'real' }, { term: 'reais', locale: 'pt-BR' }, { term: 'реал', locale: 'ru' }],
  INR: [{ term: 'rupee' }, { term: 'rupees' }, { term: 'рупия', locale: 'ru' }, { term: 'रुपये', locale: 'hi' }],
  TRY: [{ term: 'lira' }, { term: 'лира', locale: 'ru' }, { term: 'लीरा', locale: 'hi' }],
  PLN: [{ term: 'zloty' }, { term: 'злотый', locale: 'ru' }],
  RUB: [{ term: 'ruble' }, { term: 'rubles' }, { term: 'рубль', locale: 'ru' }, { term: 'रूबल', locale: 'hi' }],
};
