import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's one metrics registry (docs/metrics.md): Node's default metrics (memory, CPU,
 * event loop lag, GC, handles) plus what the service defines through the helpers below, every
 * series labelled with the service's name. Served as `/metrics` on the internal health listener
 * only (startHealthServer), never on a public port.
 */
let registry: Registry | undefined;

export function metricsRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

/** Names the process in every series (`service="notes"`); called once at boot. */
export function setMetricsService(service: string): void {
  metricsRegistry().setDefaultLabels({ service });
}

/**
 * Metrics are defined once per process, on first use, so a process shows only what it does
 * (no empty HTTP families in the scan worker). Asking again for a name answers the same metric.
 */
function once<M>(name: string, make: (registers: Registry[]) => M): M {
  const reg = metricsRegistry();
  return (reg.getSingleMetric(name) as M | undefined) ?? make([reg]);
}

export function defineCounter<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  return once(name, (registers) => new Counter({ name, help, labelNames, registers }));
}

export function defineHistogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
): Histogram<L> {
  return once(name, (registers) => new Histogram({ name, help, labelNames, buckets, registers }));
}

export function defineGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect?: (this: Gauge<L>) => Promise<void> | void,
): Gauge<L> {
  return once(
    name,
    (registers) => new Gauge({ name, help, labelNames, registers, ...(collect ? { collect } : {}) }),
  );
}

/** The exposition of every metric, and its content type (`text/plain; version=0.0.4`). */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const reg = metricsRegistry();
  return { contentType: reg.contentType, body: await reg.metrics() };
}
