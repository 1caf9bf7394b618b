import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { SqlClient } from '@store/db';
import { repoRoot } from '@store/db';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createHttpMetrics, createJobMetrics, createMetricsRegistry, createStoreGauges } from './metrics.ts';

// The alert rules shipped beside the scrape config (ops/prometheus) must name only metrics the store
// has: a rule on a misspelt metric never fires. promtool checks the file when it is installed.

const file = `${repoRoot}ops/prometheus/alerts.yml`;

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string };
}

/** Every metric the API and the worker register, with the series a histogram adds. */
function storeMetricNames(): Set<string> {
  const names = new Set<string>();
  const api = createMetricsRegistry('api');
  createHttpMetrics(api);
  createStoreGauges(api, { sql: {} as SqlClient });
  const worker = createMetricsRegistry('worker');
  createJobMetrics(worker);
  for (const registry of [api, worker]) {
    for (const metric of registry.getMetricsAsArray()) {
      names.add(metric.name);
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    }
  }
  return names;
}

describe('the example alert rules', () => {
  const rules = (parse(readFileSync(file, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap(
    (group) => group.rules,
  );

  it('each say what they are about, how serious, and name only metrics the store has', () => {
    const known = storeMetricNames();
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^Store[A-Z]\w+$/);
      expect(['page', 'ticket', 'info'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary?.length, rule.alert).toBeGreaterThan(10);
      for (const name of rule.expr.match(/\bstore_[a-z_]+/g) ?? []) {
        expect(known.has(name), `${rule.alert} names ${name}`).toBe(true);
      }
    }
    // What the operators asked to be told of.
    for (const name of [
      'StorePaymentEventsStuck',
      'StorePaymentEventsDead',
      'StoreEmailsFailing',
      'StoreWorkerAbsent',
    ]) {
      expect(rules.map((rule) => rule.alert)).toContain(name);
    }
    expect(rules.some((rule) => rule.expr.includes('store_product_stock_low'))).toBe(true);
  });

  it('pass promtool where it is installed', () => {
    const check = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    if (check.error) {
      process.stderr.write('promtool is not installed: the alert rules are checked by the test above only\n');
      return;
    }
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  });
});
