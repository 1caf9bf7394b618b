export * from './accounts.ts';
export * from './catalogue.ts';
export * from './dev-mailbox.ts';
export * from './errors.ts';
export * from './jobs.ts';
export * from './limits.ts';
export * from './mail.ts';
export * from './user.ts';
