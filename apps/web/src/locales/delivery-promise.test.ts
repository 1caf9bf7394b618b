import { describe, expect, it } from 'vitest';
import en from './en.json';
import hi from './hi.json';
import ptBR from './pt-BR.json';
import ru from './ru.json';

// Codes are shown to their owner only, on the confirmation page and in the profile, and never
// emailed: no text of the home page may promise otherwise.
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
