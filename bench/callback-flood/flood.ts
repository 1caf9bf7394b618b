import { randomBytes } from 'node:crypto';
import { Agent, type Dispatcher, request } from 'undici';
import { eventBody } from './event.ts';

/**
 * The forger, a process of its own as it would be a machine of its own: the shoppers' latencies are
 * measured in the runner, whose event loop must not be the one busy sending thousands of requests a
 * second. Each address sends on a fixed schedule, `FLOOD_RATE` a second, keeping up to `IN_FLIGHT`
 * requests open: a slow answer does not slow it down. It counts the answers between the runner's
 * `measure` and `report` messages.
 */
const base = process.env.FLOOD_BASE;
const addresses = (process.env.FLOOD_ADDRESSES ?? '').split(',').filter(Boolean);
const rate = Number(process.env.FLOOD_RATE);
const bytes = Number(process.env.FLOOD_BYTES);
const IN_FLIGHT = Number(process.env.FLOOD_IN_FLIGHT);
if (!base || addresses.length === 0 || !rate || !IN_FLIGHT) throw new Error('FLOOD_* settings are missing');

/** Headers a forger can write: fresh, well formed, with a signature no secret made. */
const forgedHeaders = (): Record<string, string> => ({
  'content-type': 'application/json',
  'webhook-id': `evt_${randomBytes(12).toString('hex')}`,
  'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
  'webhook-signature': `v1,${randomBytes(32).toString('base64')}`,
});

const statuses = new Map<number, number>();
let errors = 0;
let counting = false;
let running = true;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function send(dispatcher: Dispatcher) {
  try {
    const response = await request(`${base}/api/payments/callback`, {
      method: 'POST',
      headers: forgedHeaders(),
      body: eventBody(bytes),
      dispatcher,
    });
    await response.body.dump();
    if (counting) statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  } catch {
    if (counting) errors += 1;
  }
}

async function fromAddress(address: string) {
  const dispatcher = new Agent({ localAddress: address, connections: IN_FLIGHT, keepAliveTimeout: 60_000 });
  const interval = 1_000 / rate;
  let next = performance.now() + Math.random() * interval;
  let inFlight = 0;
  while (running) {
    await sleep(next - performance.now());
    next += interval;
    if (inFlight >= IN_FLIGHT) continue;
    inFlight += 1;
    void send(dispatcher).finally(() => {
      inFlight -= 1;
    });
  }
}

process.on('message', (message: 'measure' | 'report') => {
  if (message === 'measure') {
    statuses.clear();
    errors = 0;
    counting = true;
    return;
  }
  counting = false;
  running = false;
  process.send?.({ statuses: Object.fromEntries(statuses), errors }, () => process.exit(0));
});

for (const address of addresses) void fromAddress(address);
process.send?.('ready');
