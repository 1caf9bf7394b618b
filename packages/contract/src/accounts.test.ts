import { describe, expect, it } from 'vitest';
import {
  LoginRequestSchema,
  PasswordResetConfirmSchema,
  PasswordUpdateRequestSchema,
  RegisterRequestSchema,
} from './accounts.ts';
import { ErrorKeys } from './errors.ts';

/** The message keys of each field that failed, as the error handler reports them. */
function fieldErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const errors: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

const valid = { name: 'Ana2024', email: 'Ana@Example.com', password: 'Secret123', password_confirmation: 'Secret123' };

describe('registration (SPEC.md section 5)', () => {
  it('accepts a valid form and lower-cases the email', () => {
    expect(RegisterRequestSchema.parse(valid).email).toBe('ana@example.com');
  });

  it.each([
    ['Ana', ErrorKeys.nameTooShort],
    ['A'.repeat(17), ErrorKeys.nameTooLong],
    ['Ana Maria', ErrorKeys.onlyLatinAndNumbers],
    ['Анна2024', ErrorKeys.onlyLatinAndNumbers],
    ['   ', ErrorKeys.requiredField],
  ])('refuses the name %j with %s', (name, key) => {
    expect(fieldErrors(RegisterRequestSchema.safeParse({ ...valid, name })).name).toContain(key);
  });

  it('measures the name on trimmed text', () => {
    expect(RegisterRequestSchema.safeParse({ ...valid, name: '  Ana1  ' }).success).toBe(true);
  });

  it.each([
    ['', ErrorKeys.requiredField],
    ['ana@', ErrorKeys.invalidEmailFormat],
    ['ana example.com', ErrorKeys.invalidEmailFormat],
    [`${'a'.repeat(120)}@example.com`, ErrorKeys.tooLong],
  ])('refuses the email %j with %s', (email, key) => {
    expect(fieldErrors(RegisterRequestSchema.safeParse({ ...valid, email })).email).toContain(key);
  });

  it('allows Latin, Cyrillic and Devanagari letters and digits in a password, nothing else', () => {
    for (const password of ['Пароль12345', 'पासवर्डअबक', 'abc123ABC', 'x'.repeat(32)]) {
      const result = RegisterRequestSchema.safeParse({ ...valid, password, password_confirmation: password });
      expect(result.success, password).toBe(true);
    }
    for (const password of ['pass word1', 'pass-word1', 'pässword1']) {
      const result = RegisterRequestSchema.safeParse({ ...valid, password, password_confirmation: password });
      expect(fieldErrors(result).password, password).toContain(ErrorKeys.passwordInvalid);
    }
  });

  it('refuses passwords over 32 characters and under the minimum', () => {
    const long = 'x'.repeat(33);
    expect(fieldErrors(RegisterRequestSchema.safeParse({ ...valid, password: long })).password).toContain(
      ErrorKeys.tooLong,
    );
    expect(
      fieldErrors(RegisterRequestSchema.safeParse({ ...valid, password: 'abc12', password_confirmation: 'abc12' }))
        .password,
    ).toContain(ErrorKeys.passwordTooShort);
  });

  it('reports a repeat that differs under the repeat field, in every form that has one', () => {
    expect(fieldErrors(RegisterRequestSchema.safeParse({ ...valid, password_confirmation: 'Other1234' }))).toEqual({
      password_confirmation: [ErrorKeys.passwordsDoNotMatch],
    });
    expect(
      fieldErrors(PasswordResetConfirmSchema.safeParse({ password: 'Secret123', password_confirmation: 'Secret124' })),
    ).toEqual({ password_confirmation: [ErrorKeys.passwordsDoNotMatch] });
    expect(
      fieldErrors(
        PasswordUpdateRequestSchema.safeParse({
          password: 'old',
          newPassword: 'Secret123',
          new_password_confirmation: 'Secret12',
        }),
      ),
    ).toEqual({ new_password_confirmation: [ErrorKeys.passwordsDoNotMatch] });
  });
});

describe('login', () => {
  it('needs a non-blank password of at most 32 characters, whatever its letters', () => {
    expect(LoginRequestSchema.safeParse({ email: 'a@b.co', password: 'any thing!' }).success).toBe(true);
    expect(fieldErrors(LoginRequestSchema.safeParse({ email: 'a@b.co', password: '   ' })).password).toContain(
      ErrorKeys.requiredField,
    );
    expect(fieldErrors(LoginRequestSchema.safeParse({ email: 'a@b.co', password: 'x'.repeat(33) })).password).toContain(
      ErrorKeys.tooLong,
    );
  });
});
