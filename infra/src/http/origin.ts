import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Names this machine answers to whatever the settings say: `npm start` on localhost works with none. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** Probes and scrapers reach a process by its address (a container's, a pod's); these answers carry nothing for a page. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Which requests are this site's own (docs/operations/web-security.md): the Host it answers to (a page on another
 * name that resolves here, DNS rebinding, is refused) and the Origin a write or a socket may come from, compared
 * by scheme, host and port. One set of rules for HTTP (the shell's hooks) and the socket upgrade (the gateway).
 */
export interface SiteRules {
  /** Null when the Host header names this site; else the refusal's message. */
  refuseHost(host: string | undefined): string | null;
  isAllowedOrigin(origin: string, request: IncomingMessage): boolean;
}

const hostnameOf = (host: string) => {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
};

export function siteRules(config: Pick<Config, 'ALLOWED_HOSTS' | 'ALLOWED_ORIGINS' | 'PUBLIC_URL' | 'TRUST_PROXY'>): SiteRules {
  const anyHost = config.ALLOWED_HOSTS.includes('*');
  const hosts = new Set(
    [
      ...LOOPBACK_HOSTS,
      ...config.ALLOWED_HOSTS,
      ...[config.PUBLIC_URL, ...config.ALLOWED_ORIGINS].flatMap((url) => (url && URL.canParse(url) ? [new URL(url).host] : [])),
    ].flatMap((host) => hostnameOf(host) ?? []),
  );
  const trusted =
    config.TRUST_PROXY === true ? () => true : config.TRUST_PROXY === false ? () => false : proxyAddr.compile([...config.TRUST_PROXY]);
  /** As Fastify reads request.protocol: X-Forwarded-Proto only from a proxy TRUST_PROXY believes. */
  const schemeOf = (request: IncomingMessage) => {
    const forwarded = request.headers['x-forwarded-proto'];
    const peer = request.socket.remoteAddress;
    if (typeof forwarded === 'string' && peer !== undefined && trusted(peer, 0)) return forwarded.split(',').pop()!.trim().toLowerCase();
    return (request.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  };
  return {
    refuseHost(host) {
      if (anyHost) return null;
      const name = host === undefined ? null : hostnameOf(host);
      if (name !== null && hosts.has(name)) return null;
      return `This server does not answer to the host ${JSON.stringify(host ?? '')}; add it to ALLOWED_HOSTS if it is yours`;
    },
    isAllowedOrigin(origin, request) {
      if (config.ALLOWED_ORIGINS.includes(origin)) return true;
      const host = request.headers.host;
      if (host === undefined || !URL.canParse(origin)) return false;
      const url = new URL(origin);
      return url.host === host && url.protocol === `${schemeOf(request)}:`;
    },
  };
}

/** Every request to a name this site does not answer to is refused before anything else runs (400). */
export function hostGuard(rules: SiteRules) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (PROBES.has(request.url.split('?')[0]!)) return;
    const refused = rules.refuseHost(request.headers.host);
    if (refused) await reply.status(400).send({ message: refused });
  };
}

/**
 * Writes from another site are refused even though SameSite=Lax already withholds the cookie:
 * defence in depth against CSRF (DESIGN.md "Security"). Requests without an Origin are not from
 * a browser page and carry no ambient credentials of one. The scheme counts: a page served over plain http
 * on this host is another origin than the https site.
 */
export function originGuard(rules: SiteRules) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (!origin) return;
    if (!rules.isAllowedOrigin(origin, request.raw)) {
      await reply.status(403).send({ message: `Requests from origin ${origin} are not allowed` });
    }
  };
}
