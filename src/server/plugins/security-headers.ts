import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

interface SecurityHeadersOptions {
  /** HSTS and upgrade-insecure-requests only make sense when the shop is served over https. */
  https: boolean;
  /** Stripe.js must load and frame from Stripe when Stripe is the payment provider; nothing else third-party. */
  stripe: boolean;
  /**
   * `'sha256-…'` sources of the inline <style> elements the web build put in index.html (ADR 018): each is allowed by
   * its hash, nothing else inline.
   */
  styleHashes?: readonly string[];
}

/**
 * What helmet would set on a response with these options, worked out once. `@fastify/helmet` built helmet's
 * middleware for every request (parsing the Content-Security-Policy each time, a large share of a cached catalogue
 * read's CPU); the headers never change while the process runs, so helmet (still the one that knows the
 * header rules) runs here once against a recording response, and each answer gets the recorded headers.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * A strict Content-Security-Policy: no inline scripts, no third-party origins except Stripe when configured.
 * Images may come from any https origin because products and reviews carry image links people type in.
 */
export function securityHeaders(options: SecurityHeadersOptions): Record<string, string> {
  const stripeScript = options.stripe ? ['https://js.stripe.com'] : [];
  const stripeFrames = options.stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : [];
  const stripeConnect = options.stripe ? ['https://api.stripe.com'] : [];
  return {
    ...helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...stripeScript],
          styleSrc: ["'self'", ...(options.styleHashes ?? [])],
          imgSrc: ["'self'", 'data:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...stripeConnect],
          frameSrc: stripeFrames.length > 0 ? stripeFrames : ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
          ...(options.https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
    }),
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
  };
}

/**
 * Every answer carries the security headers, set before the route runs (so errors and 404s carry them too): pages
 * and files the document set, the API's answers the locked set.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const documents = securityHeaders(options);
    const api = apiSecurityHeaders(options);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiAnswer(request.url) ? api : documents);
      done();
    });
  },
  { name: 'security-headers' },
);

/** The API's answers (JSON, redirects, errors), not its browsable documentation (`/api/docs`, HTML). */
export function isApiAnswer(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/**
 * The headers for answers that are no page: the API's (OWASP's REST Security Cheat Sheet: a JSON answer needs no
 * policy for scripts, styles or frames of its own, only to load and be framed by nothing) and those Fastify gives
 * before any plugin runs (see `frameworkErrors` in app.ts). Lock everything. The document-only headers (COOP,
 * Origin-Agent-Cluster, Permissions-Policy, X-DNS-Prefetch-Control, X-Download-Options, X-XSS-Protection,
 * X-Permitted-Cross-Domain-Policies) govern a page, so they go with pages and files: on the API they would be
 * hundreds of bytes and several header checks per answer for nothing.
 */
export function apiSecurityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
