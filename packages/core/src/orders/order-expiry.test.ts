import { describe, expect, it } from 'vitest';
import { eventually } from '../testing.ts';
import { startOrderExpirySweep } from './order-expiry.ts';

function recordingLogger() {
  const entries: Array<{ level: string; obj: object; msg?: string }> = [];
  const log = (level: string) => (obj: object, msg?: string) => entries.push({ level, obj, msg });
  return { entries, logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } };
}

describe('startOrderExpirySweep', () => {
  it('sweeps batch after batch at once until a batch comes back short, and logs the total', async () => {
    const batches = [3, 3, 1];
    const calls: number[] = [];
    const { entries, logger } = recordingLogger();
    const sweeper = startOrderExpirySweep(
      {
        orders: {
          async expireOrders({ limit = 0 } = {}) {
            calls.push(limit);
            return batches.shift() ?? 0;
          },
        },
        logger,
      },
      { batch: 3, intervalMs: 60_000 },
    );
    await eventually(() => entries.length > 0);
    await sweeper.stop();
    expect(calls).toEqual([3, 3, 3]);
    expect(entries).toEqual([{ level: 'info', obj: { count: 7 }, msg: 'unpaid orders expired' }]);
  });

  it('logs a failed sweep and tries again on the next tick', async () => {
    let attempts = 0;
    const { entries, logger } = recordingLogger();
    const sweeper = startOrderExpirySweep(
      {
        orders: {
          async expireOrders() {
            attempts += 1;
            if (attempts === 1) throw new Error('database away');
            return 0;
          },
        },
        logger,
      },
      { intervalMs: 20 },
    );
    await eventually(() => attempts >= 2);
    await sweeper.stop();
    expect(entries[0]).toMatchObject({ level: 'error', msg: 'order expiry sweep failed' });
  });
});
