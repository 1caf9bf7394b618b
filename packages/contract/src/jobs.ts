import { z } from 'zod';

/** Queue names and job payloads. The worker parses every payload it receives with these. */
export const QUEUE_NAME = 'store';

export const HealthJobSchema = z.object({
  kind: z.literal('health'),
  requestedAt: z.iso.datetime(),
  nonce: z.string().min(1).max(64),
});
export type HealthJob = z.infer<typeof HealthJobSchema>;

/** Sends one row of `outbound_emails`; the row holds the address, template, language and data. */
export const EmailSendJobSchema = z.object({
  kind: z.literal('email.send'),
  emailId: z.uuid(),
});
export type EmailSendJob = z.infer<typeof EmailSendJobSchema>;

export const JobSchema = z.discriminatedUnion('kind', [HealthJobSchema, EmailSendJobSchema]);
export type Job = z.infer<typeof JobSchema>;
export type JobKind = Job['kind'];
