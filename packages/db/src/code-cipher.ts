import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Gift-card codes are secrets: AES-256-GCM at rest. Layout of the stored bytes:
 * version (1) | IV (12) | ciphertext | tag (16). The digest is an HMAC under a key derived from the
 * same secret, so the database can hold a code unique without being able to read it.
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface CodeCipher {
  encrypt(code: string): Uint8Array<ArrayBuffer>;
  decrypt(stored: Uint8Array): string;
  digest(code: string): string;
}

export function createCodeCipher(keyHex: string): CodeCipher {
  if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) {
    throw new Error('The code encryption key must be 32 bytes written as 64 hex characters.');
  }
  const secret = Buffer.from(keyHex, 'hex');
  const encryptionKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'store/codes/aes-256-gcm', 32));
  const digestKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'store/codes/digest', 32));

  return {
    encrypt(code) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
      const stored = Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]);
      return new Uint8Array(stored);
    },
    decrypt(stored) {
      const bytes = Buffer.from(stored);
      if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) {
        throw new Error('Not an encrypted code of a known version.');
      }
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      const tag = bytes.subarray(bytes.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
    digest(code) {
      return createHmac('sha256', digestKey).update(code.trim().toUpperCase()).digest('hex');
    },
  };
}

/**
 * The key of tests, published with the repository. Before stores made their own (local-secrets.ts),
 * it was also the key of every store started without CODE_ENCRYPTION_KEY: a data folder from then
 * keeps it, as its codes were encrypted with it. Production refuses it.
 */
export function devCodeKey(): string {
  return createHash('sha256').update('store development code key').digest('hex');
}
