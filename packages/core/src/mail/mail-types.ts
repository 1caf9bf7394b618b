/** The mail port's shapes, apart from the transports that implement it (mailer.ts, dev-outbox.ts). */

export interface OutgoingEmail {
  /** The outbox row this message was rendered from; the same on every retry of it. */
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Hands a rendered message to whatever delivers mail; resolves once it was accepted. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox' | 'none';
  /**
   * The longest one `send` may take before it gives up. A run that claims an email to send holds it
   * a while longer than this, so only a run that died mid-send loses its claim.
   */
  readonly sendDeadlineMs: number;
  send(message: OutgoingEmail): Promise<void>;
  close(): Promise<void>;
}
