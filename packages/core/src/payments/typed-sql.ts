import type { qb, Statement } from '@store/db';

/**
 * Kysely's types the payments' statements name. This package reaches Kysely only through `qb`, so
 * they are made from what `qb` answers.
 */

/** The operation node of an expression, as Kysely's builders make them. */
type OperationNode = ReturnType<ReturnType<typeof qb.fn<unknown>>['toOperationNode']>;

/**
 * An SQL expression answering a `T`: Kysely's `Expression<T>`, such as `eb.ref('o.id')`, `eb.val(id)`
 * or a one-column subquery's `$asScalar()`.
 */
export interface SqlExpression<T> {
  readonly expressionType: T | undefined;
  toOperationNode(): OperationNode;
}

/** The rows a statement answers. */
export type RowOf<S> = S extends Statement<infer O> ? O : never;
