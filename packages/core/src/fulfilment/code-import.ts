import type { CodeCipher, PrismaClient } from '@store/db';
import { NotFoundError } from '../shared/errors.ts';

/** The longest code the store takes; a longer line is a mistake in the file, not a code. */
export const CODE_MAX_LENGTH = 256;

/** Digests looked up and rows inserted per statement. */
const BATCH = 1_000;

export interface CodeImportReport {
  added: number;
  /** Lines whose code appears earlier in the same file. */
  duplicateInFile: number;
  /** Codes the store holds already, for this or any product. */
  alreadyStored: number;
  /** Lines longer than CODE_MAX_LENGTH. */
  invalid: number;
  /** Empty lines, skipped without counting as refused. */
  blank: number;
}

/**
 * Adds gift-card codes to a product's stock from the lines of a file: each line trimmed, blank ones
 * skipped, every code encrypted before it reaches the database. A code is recognised by its keyed
 * digest (case and surrounding spaces do not matter), so a duplicate in the file or against the
 * store is refused without any code being decrypted; a concurrent import of the same code is
 * refused by the digest's unique index.
 */
export async function importCodes(
  { db, cipher }: { db: PrismaClient; cipher: CodeCipher },
  productId: number,
  lines: readonly string[],
): Promise<CodeImportReport> {
  const product = await db.product.findUnique({ where: { id: productId }, select: { id: true } });
  if (!product) throw new NotFoundError('Product');

  const report: CodeImportReport = { added: 0, duplicateInFile: 0, alreadyStored: 0, invalid: 0, blank: 0 };
  const fresh = new Map<string, string>();
  for (const line of lines) {
    const code = line.trim();
    if (!code) report.blank += 1;
    else if (code.length > CODE_MAX_LENGTH) report.invalid += 1;
    else {
      const digest = cipher.digest(code);
      if (fresh.has(digest)) report.duplicateInFile += 1;
      else fresh.set(digest, code);
    }
  }

  const candidates = [...fresh];
  for (let start = 0; start < candidates.length; start += BATCH) {
    const batch = candidates.slice(start, start + BATCH);
    const stored = await db.productCode.findMany({
      where: { codeDigest: { in: batch.map(([digest]) => digest) } },
      select: { codeDigest: true },
    });
    const known = new Set(stored.map((row) => row.codeDigest));
    const toAdd = batch.filter(([digest]) => !known.has(digest));
    const { count } = await db.productCode.createMany({
      data: toAdd.map(([digest, code]) => ({ productId, ciphertext: cipher.encrypt(code), codeDigest: digest })),
      skipDuplicates: true,
    });
    report.added += count;
    report.alreadyStored += batch.length - count;
  }
  return report;
}
