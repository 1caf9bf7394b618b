import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ErrorKeys } from './errors.ts';
import { cleanText, hasForbiddenCharacters } from './text.ts';

describe('hasForbiddenCharacters', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a bell', 'a\u0007'],
    ['an escape', '\u001b[31m'],
    ['a vertical tab', 'a\u000bb'],
    ['DEL', 'a\u007f'],
    ['a C1 control', 'a\u0085b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a high surrogate at the end', 'abc\ud83d'],
    ['two high surrogates', '\ud83d\ud83d'],
  ])('finds %s', (_name, value) => {
    expect(hasForbiddenCharacters(value)).toBe(true);
  });

  it.each([
    ['plain text', 'Steam gift card'],
    ['tab and line breaks', 'line one\r\nline\ttwo'],
    ['an emoji (a surrogate pair)', 'great 😀 card'],
    ['Cyrillic and Devanagari', 'Привет नमस्ते'],
    ['the empty string', ''],
  ])('lets %s through', (_name, value) => {
    expect(hasForbiddenCharacters(value)).toBe(false);
  });
});

describe('cleanText', () => {
  const schema = z.string().check(cleanText());

  it('refuses with the invalidCharacters key', () => {
    const result = z.safeParse(schema, 'x\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([ErrorKeys.invalidCharacters]);
  });

  it('accepts ordinary text', () => {
    expect(z.safeParse(schema, 'ok 😀').success).toBe(true);
  });
});
