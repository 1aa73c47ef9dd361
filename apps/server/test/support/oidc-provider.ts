import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider on loopback for tests (the `oidc-provider` package): one client for Plenum, an
 * account store the test fills (sub, email, email_verified), and an interaction without a page: the
 * next sign-in at the provider logs in as `idp.next` (or refuses, `idp.next = 'deny'`) and consents.
 * The HTTP server starts first, so the app can be given the issuer before the client's callback URL is
 * known; `configure(callbackUrl)` builds the provider behind it.
 */
export interface IdpAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** the sub the next interaction signs in as; 'deny' answers access_denied */
  next: string;
  /** answer nothing until released (a provider that is down or slow) */
  stall: boolean;
  configure(callbackUrls: string[]): void;
  close(): Promise<void>;
}

export async function startIdp(): Promise<TestIdp> {
  let provider: Provider | null = null;
  const idp = {} as TestIdp;
  const pending: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    if (idp.stall) {
      pending.push(res);
      return;
    }
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, idp, req, res).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(idp, {
    issuer,
    clientId: 'plenum',
    clientSecret: 'plenum-test-secret-0123456789abcdef',
    accounts: new Map<string, IdpAccount>(),
    next: '',
    stall: false,
    configure(callbackUrls: string[]) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            redirect_uris: callbackUrls,
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        pkce: { required: () => true },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['given_name', 'family_name'],
        },
        features: { devInteractions: { enabled: false } },
        // lifetimes named, so the provider does not remark on its defaults
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
        },
        async findAccount(_ctx, sub) {
          const account = idp.accounts.get(sub);
          if (!account) return undefined;
          return { accountId: sub, claims: async () => ({ ...account }) };
        },
        // quiet: the in-memory adapter and development keys are what a test wants
        renderError(ctx, out) {
          ctx.type = 'json';
          ctx.body = out;
        },
      });
      provider.proxy = false;
    },
    async close() {
      for (const res of pending.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return idp;
}

/** the login and consent an interaction page would ask for, answered at once */
async function interact(
  provider: Provider,
  idp: TestIdp,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  if (idp.next === 'deny') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the person said no' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = idp.next;
  const clientId = String(details.params.client_id);
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}
