import { describe, expect, it } from 'vitest';
import {
  EmailSchema,
  EmailUpdateRequestSchema,
  LoginRequestSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  PasswordUpdateRequestSchema,
  RegisterRequestSchema,
  ReviewCreateRequestSchema,
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

describe('registration', () => {
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

  it('takes a password reset without its repeat, but a registration only with one', () => {
    expect(PasswordResetConfirmSchema.safeParse({ password: 'Secret123' }).success).toBe(true);
    expect(
      fieldErrors(PasswordResetConfirmSchema.safeParse({ password: 'Secret123', password_confirmation: '' })),
    ).toEqual({ password_confirmation: [ErrorKeys.passwordsDoNotMatch] });
    const { password_confirmation: _repeat, ...withoutRepeat } = valid;
    expect(fieldErrors(RegisterRequestSchema.safeParse(withoutRepeat))).toEqual({
      password_confirmation: [ErrorKeys.requiredField],
    });
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

describe('email addresses', () => {
  const local64 = 'a'.repeat(64);
  const label63 = 'b'.repeat(63);

  it.each([
    ['ana@example.com', 'ana@example.com'],
    ['Ana.Maria@Example.COM', 'ana.maria@example.com'],
    ['  ana@example.com  ', 'ana@example.com'],
    ['first.last+tag@sub.example.co.uk', 'first.last+tag@sub.example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['x_y-z!#$%&*/=?^`{|}~@example.org', 'x_y-z!#$%&*/=?^`{|}~@example.org'],
    ['a@b.co', 'a@b.co'],
    ['user@123.example.com', 'user@123.example.com'],
    ['user@my-host.example', 'user@my-host.example'],
    ['user@xn--80ak6aa92e.com', 'user@xn--80ak6aa92e.com'],
    ['user@example.xn--p1ai', 'user@example.xn--p1ai'],
    [`${local64}@example.com`, `${local64}@example.com`],
    [`a@${label63}.com`, `a@${label63}.com`],
  ])('accepts %j as %j', (input, stored) => {
    expect(EmailSchema.parse(input)).toBe(stored);
  });

  it.each([
    ['a comment after the domain', 'a@example.com(x)'],
    ['a comment in the local part', 'a(x)@example.com'],
    ['a quoted local part', '"a b"@example.com'],
    ['a quoted local part with an @', '"a@b"@example.com'],
    ['an address literal', 'a@[127.0.0.1]'],
    ['an IPv4 host', 'a@127.0.0.1'],
    ['a host without a dot', 'a@localhost'],
    ['a one-letter top-level domain', 'a@example.c'],
    ['a numeric top-level domain', 'a@example.123'],
    ['a trailing dot', 'a@example.com.'],
    ['an empty label', 'a@example..com'],
    ['a label starting with a hyphen', 'a@-example.com'],
    ['a label ending with a hyphen', 'a@example-.com'],
    ['a label of 64 characters', `a@${'b'.repeat(64)}.com`],
    ['a local part of 65 characters', `${'a'.repeat(65)}@example.com`],
    ['a leading dot', '.a@example.com'],
    ['a trailing dot in the local part', 'a.@example.com'],
    ['two dots in a row', 'a..b@example.com'],
    ['no local part', '@example.com'],
    ['no domain', 'a@'],
    ['two @', 'a@b@example.com'],
    ['a space inside', 'a b@example.com'],
    ['a tab inside', 'a\tb@example.com'],
    ['a line break inside', 'a@example.com\nBcc: x@example.com'],
    ['a right-to-left override', 'a\u202E@example.com'],
    ['a right-to-left override in the domain', 'a@exa\u202Emple.com'],
    ['a left-to-right mark', 'a@example.com\u200E'],
    ['a zero-width space', 'a\u200B@example.com'],
    ['a zero-width joiner', 'a@exam\u200Dple.com'],
    ['a soft hyphen', 'a\u00ADb@example.com'],
    ['a NUL', 'a\u0000@example.com'],
    ['a DEL', 'a\u007F@example.com'],
    ['a non-ASCII letter', 'jos\u00E9@example.com'],
    ['a Cyrillic look-alike', '\u0430na@example.com'],
    ['a Unicode domain', 'a@\u043F\u0440\u0438\u043C\u0435\u0440.com'],
    ['a full-width at sign', 'a\uFF20example.com'],
    ['a backslash', 'a\\b@example.com'],
    ['a comma', 'a,b@example.com'],
    ['angle brackets', '<a@example.com>'],
    ['a display name', 'Ana <a@example.com>'],
  ])('refuses %s', (_case, email) => {
    const result = EmailSchema.safeParse(email);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(ErrorKeys.invalidEmailFormat);
  });

  it('refuses an address over the length limit, and an empty one', () => {
    const long = `${'a'.repeat(60)}@${'b'.repeat(60)}.example.com`;
    expect(fieldErrors(LoginRequestSchema.safeParse({ email: long, password: 'x' })).email).toContain(
      ErrorKeys.tooLong,
    );
    expect(fieldErrors(LoginRequestSchema.safeParse({ email: '  ', password: 'x' })).email).toContain(
      ErrorKeys.requiredField,
    );
  });

  it('is the rule of registration, login, reset request and email change alike', () => {
    const bad = 'a@example.com(x)';
    const requests = [
      RegisterRequestSchema.safeParse({ ...valid, email: bad }),
      LoginRequestSchema.safeParse({ email: bad, password: 'x' }),
      PasswordResetRequestSchema.safeParse({ email: bad }),
      EmailUpdateRequestSchema.safeParse({ email: bad, password: 'x' }),
    ];
    for (const result of requests) expect(fieldErrors(result).email).toEqual([ErrorKeys.invalidEmailFormat]);
  });
});

describe('email change', () => {
  it('takes the new address alone, or with a current password that is not blank', () => {
    expect(EmailUpdateRequestSchema.parse({ email: 'New@Example.com', password: 'any thing!' })).toEqual({
      email: 'new@example.com',
      password: 'any thing!',
    });
    expect(EmailUpdateRequestSchema.parse({ email: 'New@Example.com' })).toEqual({ email: 'new@example.com' });
    expect(
      fieldErrors(EmailUpdateRequestSchema.safeParse({ email: 'new@example.com', password: '' })).password,
    ).toContain(ErrorKeys.requiredField);
    expect(
      fieldErrors(EmailUpdateRequestSchema.safeParse({ email: 'new@example.com', password: ' ' })).password,
    ).toContain(ErrorKeys.requiredField);
  });
});

describe('text no database or mail header can carry', () => {
  it.each([
    ['a NUL in the login email', LoginRequestSchema, { email: 'a\u0000@b.co', password: 'x' }, 'email'],
    ['a NUL in the login password', LoginRequestSchema, { email: 'a@b.co', password: 'x\u0000y' }, 'password'],
    ['a lone surrogate in the registration email', RegisterRequestSchema, { ...valid, email: 'a\ud800@b.co' }, 'email'],
    ['an escape in the name', RegisterRequestSchema, { ...valid, name: 'Ana\u001b2024' }, 'name'],
    ['a NUL in a review', ReviewCreateRequestSchema, { productId: 1, rating: 5, text: 'good\u0000card' }, 'text'],
  ])('refuses %s with invalidCharacters', (_name, schema, input, field) => {
    expect(fieldErrors(schema.safeParse(input))[field]).toContain(ErrorKeys.invalidCharacters);
  });

  it('keeps line breaks and emoji in a review', () => {
    expect(ReviewCreateRequestSchema.safeParse({ productId: 1, rating: 5, text: 'great\r\ncard 😀' }).success).toBe(
      true,
    );
  });
});
