import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength.ts';

describe('passwordStrength', () => {
  it('says nothing for an empty field', () => {
    expect(passwordStrength('')).toBeNull();
  });

  it('says too short from 1 to 7 characters and too long above 32', () => {
    expect(passwordStrength('a')).toBe('tooShort');
    expect(passwordStrength('abcdefg')).toBe('tooShort');
    expect(passwordStrength('a'.repeat(33))).toBe('tooLong');
  });

  it('grades nothing the rules refuse: a symbol or a space, whatever else is there', () => {
    expect(passwordStrength('Abcdef1!')).toBe('invalid');
    expect(passwordStrength('Abc def12')).toBe('invalid');
    expect(passwordStrength('a!')).toBe('invalid');
  });

  it('grades the rest by kinds of characters and length', () => {
    expect(passwordStrength('abcdefgh')).toBe('weak');
    expect(passwordStrength('abcdefg1')).toBe('medium');
    expect(passwordStrength('abcdefghijkl')).toBe('medium');
    expect(passwordStrength('Abcdefg1')).toBe('strong');
    expect(passwordStrength('пароль12')).toBe('medium');
    expect(passwordStrength('a'.repeat(32))).toBe('medium');
  });
});
