import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, isBlockedAddress, literalAddress, RefusedAddressError } from './address-guard';

export const SEND_TIMEOUT_MS = 5000;
/** connections kept open to one endpoint (its origin) at most */
const SOCKETS_PER_ENDPOINT = 16;
export const MAX_STORED_BODY = 1024;

export interface SendResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  body: string | null;
  error: string | null;
}

/**
 * Keep-alive connections per endpoint origin, owned by one sender (the webhook worker) and closed with it:
 * a delivery reuses an open connection to its endpoint instead of a TCP (and TLS) handshake each. The
 * address check runs when a connection is made, on the address it connects to; a kept connection stays on
 * that checked address (docs/webhooks.md, "Safety").
 */
export class WebhookAgents {
  private readonly agents = new Map<string, http.Agent>();

  for(url: URL): http.Agent {
    const key = url.origin;
    let agent = this.agents.get(key);
    if (!agent) {
      const options = {
        keepAlive: true,
        maxSockets: SOCKETS_PER_ENDPOINT,
        maxFreeSockets: SOCKETS_PER_ENDPOINT,
        timeout: 30_000,
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }

  close() {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * One signed POST (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`, signed by
 * the `standardwebhooks` library). The address is checked on what the name resolves to at send time and
 * the socket connects to that address; redirects are not followed; 5 s for the whole exchange; at most
 * 1 KiB of the response is kept (docs/webhooks.md, "Safety").
 */
export function sendWebhook(params: {
  url: string;
  secret: string;
  messageId: string;
  timestamp: Date;
  body: string;
  allowPrivate: boolean;
  /** the sender's kept connections; none: a connection of its own, closed after */
  agents?: WebhookAgents;
}): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  const target = new URL(params.url);
  const literal = literalAddress(target);
  if (literal && !params.allowPrivate && isBlockedAddress(literal))
    return Promise.resolve(
      done({ ok: false, status: null, body: null, error: `${literal} is not an allowed address` }),
    );
  const signature = new Webhook(params.secret).sign(params.messageId, params.timestamp, params.body);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(params.allowPrivate),
        agent: params.agents ? params.agents.for(target) : false,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Plenum-Webhooks/1',
          'webhook-id': params.messageId,
          'webhook-timestamp': String(Math.floor(params.timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_STORED_BODY) chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_STORED_BODY) res.destroy();
        });
        const end = () => {
          const status = res.statusCode ?? 0;
          finish({
            ok: status >= 200 && status < 300,
            status,
            body: Buffer.concat(chunks).subarray(0, MAX_STORED_BODY).toString('utf8'),
            error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
          });
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, body: null, error: 'timed out after 5 s' });
      req.destroy();
    }, SEND_TIMEOUT_MS);
    req.on('error', (err) =>
      finish({
        ok: false,
        status: null,
        body: null,
        error: err instanceof RefusedAddressError ? err.message : `connection failed: ${err.message}`,
      }),
    );
    req.end(params.body);
  });
}
