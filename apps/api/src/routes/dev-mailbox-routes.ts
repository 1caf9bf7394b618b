import { isIPv4 } from 'node:net';
import { DevMailboxQuerySchema, DevMailboxResponseSchema } from '@store/contract';
import {
  type DevMailbox,
  escapeHtml as e,
  getOutboxMessage,
  listOutboxMessages,
  type OutboxMessage,
} from '@store/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const MessageParamsSchema = z.object({ id: z.string() });
const MessageQuerySchema = z.object({ format: z.enum(['page', 'html', 'text']).default('page') });

const PAGE_STYLE = `body{font-family:system-ui,sans-serif;margin:24px;color:#1f2937}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #e5e7eb;font-size:14px}
th{background:#f9fafb}a{color:#4f46e5}.PENDING{color:#b45309}.SENT{color:#047857}.FAILED{color:#b91c1c}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;font-size:14px}dt{font-weight:bold}
pre{background:#f9fafb;padding:12px;white-space:pre-wrap;border:1px solid #e5e7eb}
.mail{border:1px solid #e5e7eb;margin:16px 0}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title><style>${PAGE_STYLE}</style></head>
<body>${body}</body></html>`;
}

function sendPage(reply: FastifyReply, html: string) {
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function listPage(messages: OutboxMessage[], to: string | undefined): string {
  const rows = messages
    .map(
      (message) => `<tr>
<td>${e(message.createdAt.toISOString())}</td><td>${e(message.to)}</td>
<td><a href="/dev/mailbox/${e(message.id)}">${e(message.subject)}</a></td>
<td>${e(message.locale)}</td><td class="${e(message.status)}">${e(message.status)}</td><td>${message.attempts}</td></tr>`,
    )
    .join('\n');
  return page(
    'Dev mailbox',
    `<h1>Dev mailbox</h1>
<p>Emails the store recorded, newest first: a pending one as it will be sent, a sent one as this
process delivered it (the store keeps no link once a message is sent). Shown outside production only; JSON at
<a href="/dev/mailbox.json">/dev/mailbox.json</a>.</p>
<form method="get" action="/dev/mailbox"><label>To <input name="to" type="email" value="${e(to ?? '')}"></label>
<button type="submit">Filter</button></form>
${
  messages.length
    ? `<table><thead><tr><th>Time (UTC)</th><th>To</th><th>Subject</th><th>Language</th><th>Status</th><th>Attempts</th></tr></thead>
<tbody>${rows}</tbody></table>`
    : '<p>No messages yet.</p>'
}`,
  );
}

/** The message's own HTML body, shown inside the mailbox page. */
function mailBody(html: string): string {
  return /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? '';
}

function messagePage(message: OutboxMessage): string {
  const base = `/dev/mailbox/${e(message.id)}`;
  return page(
    message.subject,
    `<p><a href="/dev/mailbox">&larr; All messages</a></p>
<h1>${e(message.subject)}</h1>
<dl>
<dt>To</dt><dd>${e(message.to)}</dd>
<dt>Template</dt><dd>${e(message.template)} (${e(message.locale)})</dd>
<dt>Recorded</dt><dd>${e(message.createdAt.toISOString())}</dd>
<dt>Status</dt><dd class="${e(message.status)}">${e(message.status)}${message.sentAt ? ` at ${e(message.sentAt.toISOString())}` : ''}, ${message.attempts} attempt(s)</dd>
${message.lastError ? `<dt>Last error</dt><dd>${e(message.lastError)}</dd>` : ''}
<dt>Links</dt><dd>${message.links.map((link) => `<a href="${e(link)}">${e(link)}</a>`).join('<br>')}</dd>
<dt>Parts</dt><dd><a href="${base}?format=html">HTML</a> · <a href="${base}?format=text">text</a></dd>
</dl>
<h2>HTML part</h2><div class="mail">${mailBody(message.html)}</div>
<h2>Text part</h2><pre>${e(message.text)}</pre>`,
  );
}

/** 127.0.0.0/8 and ::1, also as an IPv4-mapped IPv6 address (a dual-stack socket's form). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIPv4(ipv4) ? ipv4.startsWith('127.') : address === '::1';
}

/** Headers a proxy adds: a request carrying one was forwarded, from wherever, by something local. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

export interface DevMailboxRoutesOptions {
  /** Where this process's outbox mailer delivers: the only copy of a sent message's link. */
  mailbox: DevMailbox;
}

/**
 * The development mailbox: every email the store recorded, a pending one as it will be sent and a
 * sent one as it was delivered, so a developer (or a browser test) can follow activation and reset
 * links without an SMTP server. Only registered outside production. Outside /api: no JSON security
 * headers, no rate limit.
 *
 * It shows every reset link, so it answers only a client on this machine, as the socket tells it;
 * never request.ip, which TRUST_PROXY lets a forwarded header decide. A request that came through a
 * proxy (one on this machine makes every client look local) is refused too. Anyone else gets the
 * same 404 as for a route that does not exist.
 */
export default async function devMailboxRoutes(fastify: FastifyInstance, { mailbox }: DevMailboxRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.database.prisma;
  const config = { rateLimit: false as const };

  app.addHook('onRequest', async (request, reply) => {
    const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
    if (!isLoopbackAddress(request.socket.remoteAddress) || forwarded) {
      return reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
    }
  });

  app.get(
    '/dev/mailbox.json',
    { config, schema: { hide: true, querystring: DevMailboxQuerySchema, response: { 200: DevMailboxResponseSchema } } },
    async (request, reply) => {
      const messages = await listOutboxMessages(db, mailbox, {
        to: request.query.to || undefined,
        limit: request.query.limit,
      });
      reply.header('cache-control', 'no-store');
      return {
        messages: messages.map((message) => ({
          id: message.id,
          to: message.to,
          template: message.template,
          locale: message.locale,
          subject: message.subject,
          text: message.text,
          html: message.html,
          links: message.links,
          status: message.status,
          attempts: message.attempts,
          createdAt: message.createdAt.toISOString(),
          sentAt: message.sentAt?.toISOString() ?? null,
        })),
      };
    },
  );

  app.get(
    '/dev/mailbox',
    { config, schema: { hide: true, querystring: DevMailboxQuerySchema } },
    async (request, reply) => {
      const to = request.query.to || undefined;
      return sendPage(reply, listPage(await listOutboxMessages(db, mailbox, { to, limit: request.query.limit }), to));
    },
  );

  app.get(
    '/dev/mailbox/:id',
    {
      config,
      schema: { hide: true, params: MessageParamsSchema, querystring: MessageQuerySchema },
    },
    async (request, reply) => {
      const { id } = request.params;
      const message = UUID.test(id) ? await getOutboxMessage(db, mailbox, id) : undefined;
      if (!message) return reply.code(404).send({ message: `No message ${id} in the dev mailbox.` });
      switch (request.query.format) {
        case 'html':
          return sendPage(reply, message.html);
        case 'text':
          return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(message.text);
        default:
          return sendPage(reply, messagePage(message));
      }
    },
  );
}
