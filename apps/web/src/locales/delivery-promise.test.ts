import { describe, expect, it } from 'vitest';
import en from './en.json';
import hi from './hi.json';
import infoEn from './info/en.json';
import infoHi from './info/hi.json';
import infoPtBR from './info/pt-BR.json';
import infoRu from './info/ru.json';
import ptBR from './pt-BR.json';
import ru from './ru.json';

// Codes are shown to their owner only, on the confirmation page and in the profile, and never
// emailed: no text of the home page or the holiday page may promise otherwise.
const catalogues = { en, 'pt-BR': ptBR, ru, hi };
const EMAIL = /e-?mail|почт|письм|ईमेल/i;
const PROFILE = /profile|perfil|профил|प्रोफ़ाइल/i;

describe("the home page's delivery promise", () => {
  it.each(Object.entries(catalogues))('in %s says where the code appears and never promises email', (_, texts) => {
    for (const text of [texts.app.tagline, texts.home.heroLead, texts.home.perkInstant])
      expect(text).not.toMatch(EMAIL);
    expect(texts.home.heroLead).toMatch(PROFILE);
    expect(texts.home.perkInstant).toMatch(PROFILE);
  });
});

describe("the holiday page's delivery promise", () => {
  const pages = { en: infoEn, 'pt-BR': infoPtBR, ru: infoRu, hi: infoHi };
  it.each(Object.entries(pages))('in %s puts the code in the profile, not in a mailbox', (_, texts) => {
    expect(texts.holiday.lead).not.toMatch(EMAIL);
    expect(texts.holiday.lead).not.toMatch(/inbox|caixa de entrada|इनबॉक्स/i);
    expect(texts.holiday.lead).toMatch(PROFILE);
  });
});
