import { randomUUID } from 'node:crypto';
import {
  ADMIN_PAGE_SIZE,
  AdminErrorKeys,
  CODE_MAX_CHARS,
  type CodeBatch,
  type CodeBatchPage,
  type CodeBatchQuery,
  type CodeImportReport,
  ErrorKeys,
} from '@store/contract';
import { type CodeCipher, int8ToNumber, qb, type SqlClient } from '@store/db';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type AuditActor, writeAudit } from './audit-log.ts';

/** Digests looked up and rows inserted per statement. */
const CHUNK = 1_000;

const num = (value: string | number | bigint | null | undefined): number => (value == null ? 0 : int8ToNumber(value));

export interface CodeStockDeps {
  sql: SqlClient;
  cipher: CodeCipher;
}

export interface CodeImportInput {
  productId: number;
  text: string;
  label?: string | undefined;
}

export interface WithdrawnCodes {
  batchId: number;
  codes: string[];
}

/** Rolls an import back when every code it meant to add was added by another import first. */
class NothingAdded extends Error {}

/**
 * The console's code stock: imports per product with the report of what was refused and where,
 * the batches with what became of their codes, the withdrawal of a batch's unsold codes and the
 * reveal of one sold code for a customer's ticket. Codes are stored as the command line's import
 * has always stored them: encrypted, and recognised by their keyed digest, which ignores case
 * and the spaces around a code. A code is decrypted only to be answered to the staff member who
 * withdrew or revealed it, and never reaches the audit log.
 */
export function createCodeStock({ sql, cipher }: CodeStockDeps) {
  function batchesOf(query: CodeBatchQuery) {
    let statement = qb.selectFrom('code_batches as b');
    if (query.product_id !== undefined) statement = statement.where('b.product_id', '=', query.product_id);
    return statement;
  }

  return {
    /**
     * Reads `text` one code a line and adds the codes that are new as one batch. Line numbers count
     * every line, blank ones too, so that they match the supplier's file. A code already in stock is
     * refused by the digest's unique index as well, so two imports racing with the same code add it
     * once, and the one that lost reports the line as in stock.
     */
    async importCodes(input: CodeImportInput, actor: AuditActor): Promise<CodeImportReport> {
      const [product] = await sql.query(qb.selectFrom('products').select('id').where('id', '=', input.productId));
      if (!product) throw ValidationError.field('product_id', ErrorKeys.invalidValue, 'No product has this id.');

      const report: CodeImportReport = {
        batch_id: null,
        product_id: input.productId,
        lines: 0,
        added: 0,
        duplicates_in_file: [],
        duplicates_in_stock: [],
        too_long: [],
      };
      // The first line of each new code, by its digest.
      const fresh = new Map<string, { line: number; code: string }>();
      input.text.split(/\r\n|\r|\n/).forEach((raw, index) => {
        const code = raw.trim();
        if (!code) return;
        const line = index + 1;
        report.lines += 1;
        if (code.length > CODE_MAX_CHARS) {
          report.too_long.push(line);
          return;
        }
        const digest = cipher.digest(code);
        if (fresh.has(digest)) report.duplicates_in_file.push(line);
        else fresh.set(digest, { line, code });
      });

      const candidates = [...fresh];
      const known = new Set<string>();
      for (let start = 0; start < candidates.length; start += CHUNK) {
        const digests = candidates.slice(start, start + CHUNK).map(([digest]) => digest);
        const stored = await sql.query(
          qb
            .selectFrom('product_codes')
            .select('code_digest')
            .where((eb) => eb('code_digest', '=', eb.fn.any(eb.val(digests)))),
        );
        for (const row of stored) known.add(row.code_digest);
      }
      const toAdd = candidates.filter(([digest]) => !known.has(digest));

      let added = new Set<string>();
      if (toAdd.length > 0) {
        try {
          const result = await sql.transaction(async (tx) => {
            const [batch] = await tx.query(
              qb
                .insertInto('code_batches')
                .values({ product_id: input.productId, label: input.label || null, created_by: actor.name })
                .returning('id'),
            );
            if (!batch) throw new Error('the batch was not created');
            const inserted = new Set<string>();
            for (let start = 0; start < toAdd.length; start += CHUNK) {
              const rows = await tx.query(
                qb
                  .insertInto('product_codes')
                  .values(
                    toAdd.slice(start, start + CHUNK).map(([digest, { code }]) => ({
                      id: randomUUID(),
                      product_id: input.productId,
                      ciphertext: Buffer.from(cipher.encrypt(code)),
                      code_digest: digest,
                      batch_id: batch.id,
                    })),
                  )
                  .onConflict((oc) => oc.column('code_digest').doNothing())
                  .returning('code_digest'),
              );
              for (const row of rows) inserted.add(row.code_digest);
            }
            if (inserted.size === 0) throw new NothingAdded();
            await writeAudit(tx, actor, {
              action: 'codes.import',
              targetType: 'batch',
              targetId: batch.id,
              after: {
                product_id: input.productId,
                label: input.label || null,
                lines: report.lines,
                added: inserted.size,
                duplicates_in_file: report.duplicates_in_file.length,
                duplicates_in_stock: candidates.length - inserted.size,
                too_long: report.too_long.length,
              },
            });
            return { batchId: batch.id, inserted };
          });
          report.batch_id = result.batchId;
          added = result.inserted;
        } catch (error) {
          if (!(error instanceof NothingAdded)) throw error;
        }
      }

      report.added = added.size;
      report.duplicates_in_stock = candidates
        .filter(([digest]) => !added.has(digest))
        .map(([, { line }]) => line)
        .sort((a, b) => a - b);
      return report;
    },

    /** The batches, newest first, with how many of their codes are in stock, reserved, sold and withdrawn. */
    async listBatches(query: CodeBatchQuery): Promise<CodeBatchPage> {
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? ADMIN_PAGE_SIZE;
      const [rows, [count]] = await Promise.all([
        sql.query(
          batchesOf(query)
            .innerJoin('products as p', 'p.id', 'b.product_id')
            .select((eb) => [
              'b.id',
              'b.product_id',
              'p.name as product_name',
              'b.label',
              'b.created_at',
              'b.created_by',
              'b.withdrawn',
              ...(['AVAILABLE', 'RESERVED', 'SOLD'] as const).map((status) =>
                eb
                  .selectFrom('product_codes as c')
                  .select((eb) => eb.fn.countAll<string>().as('n'))
                  .whereRef('c.batch_id', '=', 'b.id')
                  .where('c.status', '=', status)
                  .as(status.toLowerCase() as 'available' | 'reserved' | 'sold'),
              ),
            ])
            .orderBy('b.id', 'desc')
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        ),
        sql.query(batchesOf(query).select((eb) => eb.fn.countAll<string>().as('total'))),
      ]);
      return {
        items: rows.map(
          (row): CodeBatch => ({
            id: row.id,
            product_id: row.product_id,
            product_name: row.product_name,
            label: row.label,
            created_at: new Date(row.created_at).toISOString(),
            created_by: row.created_by,
            available: num(row.available),
            reserved: num(row.reserved),
            sold: num(row.sold),
            withdrawn: row.withdrawn,
          }),
        ),
        page,
        page_size: pageSize,
        total: num(count?.total),
      };
    },

    /**
     * Takes the batch's codes that are in stock out of it (deleted: the stock trigger lowers the
     * product's count) and answers them, once. A code an order holds or has bought stays: the delete
     * looks at each code's status as it is when it gets there.
     */
    async withdraw(batchId: number, reason: string, actor: AuditActor): Promise<WithdrawnCodes> {
      return sql.transaction(async (tx) => {
        const [batch] = await tx.query(
          qb.selectFrom('code_batches').select(['id', 'product_id']).where('id', '=', batchId).forUpdate(),
        );
        if (!batch) throw new NotFoundError('Batch');
        const removed = await tx.query(
          qb
            .deleteFrom('product_codes')
            .where('batch_id', '=', batchId)
            .where('status', '=', 'AVAILABLE')
            .returning(['id', 'ciphertext', 'created_at']),
        );
        if (removed.length === 0) {
          throw new ConflictError(`Batch ${batchId} has no codes in stock.`, AdminErrorKeys.nothingToWithdraw);
        }
        await tx.execute(
          qb
            .updateTable('code_batches')
            .set((eb) => ({ withdrawn: eb('withdrawn', '+', removed.length) }))
            .where('id', '=', batchId),
        );
        await writeAudit(tx, actor, {
          action: 'codes.withdraw',
          targetType: 'batch',
          targetId: batchId,
          after: { product_id: batch.product_id, withdrawn: removed.length, reason },
        });
        const ordered = removed.sort(
          (a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id.localeCompare(b.id),
        );
        return { batchId, codes: ordered.map((row) => cipher.decrypt(row.ciphertext)) };
      });
    },

    /** One sold code, shown to a staff member for a customer's ticket; the reveal is audited, not the code. */
    async reveal(codeId: string, reason: string, actor: AuditActor): Promise<{ codeId: string; code: string }> {
      return sql.transaction(async (tx) => {
        const [code] = await tx.query(
          qb
            .selectFrom('product_codes as c')
            .leftJoin('order_lines as l', 'l.id', 'c.order_line_id')
            .select(['c.id', 'c.status', 'c.ciphertext', 'c.product_id', 'l.order_id'])
            .where('c.id', '=', codeId),
        );
        if (!code) throw new NotFoundError('Code');
        if (code.status !== 'SOLD') throw new ConflictError(`Code ${codeId} is not sold: only a sold code is shown.`);
        await writeAudit(tx, actor, {
          action: 'code.reveal',
          targetType: 'code',
          targetId: codeId,
          after: { order_id: code.order_id, product_id: code.product_id, reason },
        });
        return { codeId, code: cipher.decrypt(code.ciphertext) };
      });
    },
  };
}

export type CodeStock = ReturnType<typeof createCodeStock>;
