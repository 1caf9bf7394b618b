import { EMAIL_TOKEN_TTL_MINUTES, EmailTokenSchema } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { emailTokenTtlMinutes, generateEmailToken, hashEmailToken, TEMPLATE_BY_PURPOSE } from './email-tokens.ts';

describe('email tokens', () => {
  it('are 32 random bytes in base64url, the shape the contract accepts', () => {
    const tokens = new Set(Array.from({ length: 100 }, generateEmailToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toHaveLength(43);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(EmailTokenSchema.safeParse(token).success).toBe(true);
    }
  });

  it('are stored as a SHA-256 hex digest only', () => {
    const token = generateEmailToken();
    expect(hashEmailToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashEmailToken(token)).toBe(hashEmailToken(token));
    expect(hashEmailToken(token)).not.toContain(token);
  });

  it('expire after the lifetime the contract gives their email', () => {
    for (const [purpose, template] of Object.entries(TEMPLATE_BY_PURPOSE)) {
      expect(emailTokenTtlMinutes(purpose as keyof typeof TEMPLATE_BY_PURPOSE)).toBe(EMAIL_TOKEN_TTL_MINUTES[template]);
    }
  });
});
