import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; target: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
}

// Merge keys (<<) and anchors are YAML 1.1 features that Compose supports; parse them the same way.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;

const backing = ['eventstore', 'postgres', 'kafka'];
const commandCopies = ['command-service-1', 'command-service-2'];
const gatewayCopies = ['realtime-gateway-1', 'realtime-gateway-2'];
const applications = [...commandCopies, 'query-service', ...gatewayCopies];
const observability = ['prometheus', 'otel-collector', 'jaeger', 'grafana'];

describe('docker-compose.yml', () => {
  it('has exactly the deployment of infra/DISTRIBUTED.md: stores, two command-services, one query-service, two gateways, a proxy, and what sees inside them', () => {
    expect(Object.keys(services).sort()).toEqual([...backing, ...applications, 'proxy', ...observability].sort());
  });

  it('lets Prometheus scrape every application copy and sends every copy’s spans to the collector', () => {
    const scraped = (
      parse(read('infra/observability/prometheus.yml')) as { scrape_configs: { static_configs: { targets: string[] }[] }[] }
    ).scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets));
    expect(scraped.sort()).toEqual(applications.map((name) => `${name}:3000`).sort());
    for (const name of applications) {
      const env = services[name]!.environment!;
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, name).toBe('http://otel-collector:4318');
      // Compose's networks are private ranges: the scrape is let in, the public is not.
      expect(env.METRICS_ALLOW, name).toContain('172.16.0.0/12');
    }
  });

  it('keeps a Grafana dashboard whose every query names metrics the services serve', async () => {
    const { metricsRegistry } = await import('../observability');
    const served = new Set((await metricsRegistry.getMetricsAsJSON()).map((metric) => metric.name));
    const dashboard = JSON.parse(read('infra/observability/grafana/dashboards/property-finance.json')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.panels.length).toBeGreaterThan(5);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        // The metric names: what is left once grouping labels, selectors and functions are taken out.
        const bare = expr.replace(/by \([^)]*\)/g, '').replace(/\{[^}]*\}/g, '');
        const named = [...bare.matchAll(/\b([a-z]+(?:_[a-z0-9]+)+)\b(?!\s*\()/g)].map((match) => match[1]!);
        expect(named.length, panel.title).toBeGreaterThan(0);
        // A histogram's series are its name with _bucket, _count or _sum.
        const isServed = (name: string) => served.has(name) || served.has(name.replace(/_(bucket|count|sum)$/, ''));
        for (const name of named) expect(isServed(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
  });

  it('runs KurrentDB/EventStoreDB insecure, PostgreSQL, and Kafka in KRaft mode (no ZooKeeper)', () => {
    expect(services.eventstore!.image).toMatch(/^(eventstore\/eventstore|.*kurrentdb)(:|$)/);
    expect(services.eventstore!.environment?.EVENTSTORE_INSECURE).toBe('true');
    expect(services.postgres!.image).toMatch(/^postgres:/);
    const kafka = services.kafka!;
    expect(kafka.image).toMatch(/^apache\/kafka:/);
    expect(kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.environment?.KAFKA_ADVERTISED_LISTENERS).toBe('PLAINTEXT://kafka:9092');
    expect(Object.keys(services)).not.toContain('zookeeper');
  });

  it('gives every service a health check', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.healthcheck!.test[0], name).toMatch(/^CMD(-SHELL)?$/);
    }
    // Readiness, not liveness: a copy is healthy when its database answers and its followers keep up.
    for (const name of applications) expect(services[name]!.healthcheck!.test.join(' ')).toContain('/readyz');
  });

  it('builds each application from a stage of the root multi-stage Dockerfile, the service named by SERVICE', () => {
    const expected: Record<string, Service['build']> = {
      'command-service-1': { context: '.', target: 'service', args: { SERVICE: 'command-service' } },
      'command-service-2': { context: '.', target: 'service', args: { SERVICE: 'command-service' } },
      'query-service': { context: '.', target: 'service', args: { SERVICE: 'query-service' } },
      'realtime-gateway-1': { context: '.', target: 'service', args: { SERVICE: 'realtime-gateway' } },
      'realtime-gateway-2': { context: '.', target: 'service', args: { SERVICE: 'realtime-gateway' } },
      proxy: { context: '.', target: 'proxy' },
    };
    const dockerfile = read('Dockerfile');
    const stages = [...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]);
    expect(stages).toEqual(expect.arrayContaining(['deps', 'service', 'proxy']));
    expect(dockerfile).toContain('npm ci');
    for (const [name, build] of Object.entries(expected)) {
      expect(services[name]!.build, name).toEqual(build);
      expect(stages, name).toContain(build!.target);
      if (build!.args) expect(read(`${build!.args.SERVICE}/src/main.ts`), name).toContain('runStandalone');
    }
    for (const name of backing) expect(services[name]!.image, name).toBeTruthy();
  });

  it('starts each service once the services it uses are healthy', () => {
    for (const name of applications) {
      expect(services[name]!.depends_on, name).toEqual(
        Object.fromEntries(backing.map((dependency) => [dependency, { condition: 'service_healthy' }])),
      );
    }
    expect(services.proxy!.depends_on).toEqual(
      Object.fromEntries(applications.map((dependency) => [dependency, { condition: 'service_healthy' }])),
    );
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(services, `${name} -> ${dependency}`).toHaveProperty(dependency);
    }
  });

  it('wires the stores into every application and the gateways to the command side', () => {
    for (const name of applications) {
      const env = services[name]!.environment!;
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(env.EVENTSTORE_URL, name).toMatch(/^esdb:\/\/eventstore:2113\?tls=false$/);
      expect(env.KAFKA_BROKERS, name).toBe('kafka:9092');
      expect(env.PORT, name).toBe('3000');
      expect(env.TRUST_PROXY, name).toBe('true');
    }
    for (const name of gatewayCopies) expect(services[name]!.environment!.COMMAND_SERVICE_URL).toBe('http://proxy');
    expect(services.proxy!.ports).toEqual(['${PROXY_PORT:-8080}:80']);
  });

  it("gives PostgreSQL's password no default: compose refuses to start without POSTGRES_PASSWORD", () => {
    const required = /\$\{POSTGRES_PASSWORD:\?[^}]+\}/;
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(new RegExp(`^${required.source}$`));
    for (const name of applications) expect(services[name]!.environment!.DATABASE_URL, name).toMatch(required);
    expect(read('docker-compose.yml')).not.toMatch(/postgres:postgres@|POSTGRES_PASSWORD: postgres/);
  });

  it('points the proxy at every application copy compose defines, on the port they listen on', () => {
    const nginx = read('infra/proxy/nginx.conf');
    const upstreams = [...nginx.matchAll(/^\s*server ([a-z0-9-]+):(\d+)/gm)].map((m) => [m[1], m[2]]);
    expect(upstreams.map(([host]) => host).sort()).toEqual([...applications].sort());
    for (const [, port] of upstreams) expect(port).toBe('3000');
  });

  it('keeps node_modules and local data out of the build context', () => {
    expect(existsSync(path.join(root, '.dockerignore'))).toBe(true);
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'data', '**/dist']));
  });
});
