/**
 * Outbound pushes, guarded against SSRF: a push goes only to the configured URL, over
 * https (http only for localhost names), with a 10 s deadline, never following a redirect, and never
 * to a loopback, private, link-local or otherwise non-public address unless `allowed` names its
 * range. Addresses are classified with ipaddr.js; a host name is resolved and every address it
 * resolves to is checked at connect time (the check and the connection use the same lookup, so a
 * DNS answer cannot change in between).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Deadline of one request, connect to last byte, ms. */
export const PUSH_TIMEOUT_MS = 10_000;
/** At most this much of a response body is read, bytes. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Ranges (ipaddr.js range names such as `loopback`, `private`, or CIDRs) pushes may reach besides public unicast. */
export interface EgressPolicy {
  allowed: readonly string[];
}

/** Parses PUSH_ALLOWED_NETWORKS-style text: `loopback,private,10.1.0.0/16`. Throws on a bad CIDR. */
export function parseAllowedNetworks(text: string): string[] {
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
  for (const part of parts) if (part.includes('/')) ipaddr.parseCIDR(part);
  return parts;
}

/** Why `address` may not be reached under `policy`, or null when it may. */
export function addressRefusal(address: string, policy: EgressPolicy): string | null {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  for (const allowed of policy.allowed) {
    if (allowed === range) return null;
    if (allowed.includes('/')) {
      const [network, bits] = ipaddr.parseCIDR(allowed);
      if (network.kind() === parsed.kind() && parsed.match([network, bits] as never)) return null;
    }
  }
  return `address ${address} is ${range}, not allowed (PUSH_ALLOWED_NETWORKS)`;
}

/** Why `url` cannot be an endpoint (scheme, credentials, literal address), or null. Does not resolve names. */
export function urlRefusal(url: string, policy: EgressPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOCAL_NAMES.has(parsed.hostname))) return 'https is required (http only for localhost)';
  if (parsed.username || parsed.password) return 'credentials in the URL are not allowed';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return addressRefusal(host, policy);
  if (host === 'localhost') return addressRefusal('127.0.0.1', policy);
  return null;
}

/** A lookup that refuses names resolving to an address `policy` forbids. */
function guardedLookup(policy: EgressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal) return callback(Object.assign(new Error(refusal), { code: 'EPUSHREFUSED' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

export interface PushResult {
  /** HTTP status, or null when no answer came (refused, timeout, network error). */
  status: number | null;
  /** ms */
  latencyMs: number;
  /** The response body (at most 64 KiB, UTF-8). */
  body: string;
  error: string | null;
}

/**
 * POSTs `body` (JSON) with `headers` to `url` under `policy`. Never throws: refusals, timeouts and
 * network errors come back as `error` (status null); 3xx answers are not followed (error set).
 */
export function postJson(url: string, headers: Record<string, string>, body: string, policy: EgressPolicy, signal?: AbortSignal): Promise<PushResult> {
  const started = performance.now();
  const done = (status: number | null, text: string, error: string | null): PushResult =>
    ({ status, latencyMs: Math.round(performance.now() - started), body: text, error });
  const refusal = urlRefusal(url, policy);
  if (refusal) return Promise.resolve(done(null, '', refusal));
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const timeout = AbortSignal.timeout(PUSH_TIMEOUT_MS);
    const request = client.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'iot-platform-push/1', ...headers },
      lookup: guardedLookup(policy),
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      agent: false,
    }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES);
        const redirect = status >= 300 && status < 400 ? `redirect to ${response.headers.location ?? '?'} not followed` : null;
        resolve(done(status, text, redirect ?? (status >= 200 && status < 300 ? null : `HTTP ${status}`)));
      });
      response.on('error', (error) => resolve(done(status(response), '', error.message)));
    });
    request.on('error', (error: Error & { code?: string }) => {
      const message = timeout.aborted ? `timeout after ${PUSH_TIMEOUT_MS} ms` : error.message;
      resolve(done(null, '', message));
    });
    request.end(body);
  });
}

const status = (response: http.IncomingMessage) => response.statusCode ?? null;

/** The egress policy of a configuration (PUSH_ALLOWED_NETWORKS; `loopback` by default with the demo on). */
export function egressPolicyOf(config: { PUSH_ALLOWED_NETWORKS?: string; DEMO: boolean }): EgressPolicy {
  return { allowed: parseAllowedNetworks(config.PUSH_ALLOWED_NETWORKS ?? (config.DEMO ? 'loopback' : '')) };
}
