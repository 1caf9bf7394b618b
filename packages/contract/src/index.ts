export * from './catalogue.ts';
export * from './errors.ts';
export * from './jobs.ts';
export * from './limits.ts';
